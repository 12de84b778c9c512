/** Parsers and serialisers of the `.agent` files — pure, byte-stable on round trip. See README.md here. */
export * from './problems';
export * from './lines';
export * from './front-matter';
export * from './markdown';
export * from './list-items';
export * from './jsonl';
export * from './agent-log';
export * from './memory';
export * from './plan';
export * from './progress';
export * from './session-summary';
export * from './skill';
export * from './agent-files';
export * from './skipped-folders';
