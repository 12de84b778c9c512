import initial from './001-initial';

export interface Migration {
  readonly id: number;
  readonly name: string;
  readonly sql: string;
}

/** Every migration this build knows, in order. Append only: a released migration never changes. */
export const migrations: readonly Migration[] = [{ id: 1, name: 'initial', sql: initial }];
