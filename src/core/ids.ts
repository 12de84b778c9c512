/** Ids are opaque to callers: returned by the engine and passed back as they are. */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

export type SessionId = Brand<number, 'SessionId'>;
export type TaskId = Brand<number, 'TaskId'>;
export type MessageId = Brand<number, 'MessageId'>;
export type StepId = Brand<number, 'StepId'>;
export type SummaryId = Brand<number, 'SummaryId'>;
export type CheckpointEntryId = Brand<number, 'CheckpointEntryId'>;
export type BodyId = Brand<number, 'BodyId'>;
export type EventId = Brand<number, 'EventId'>;

export const asSessionId = (n: number) => n as SessionId;
export const asTaskId = (n: number) => n as TaskId;
export const asMessageId = (n: number) => n as MessageId;
export const asStepId = (n: number) => n as StepId;
export const asSummaryId = (n: number) => n as SummaryId;
export const asCheckpointEntryId = (n: number) => n as CheckpointEntryId;
export const asBodyId = (n: number) => n as BodyId;
export const asEventId = (n: number) => n as EventId;
