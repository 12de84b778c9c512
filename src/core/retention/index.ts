export * from './types';
export { defaultOrphanLimit, planRetention } from './plan';
export { describeReason } from './describe';
