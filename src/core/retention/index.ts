export * from './types';
export { defaultOrphanLimit, planRetention } from './retention-plan';
export { describeReason, removalNote } from './describe';
export {
  createAutoCleanup,
  type AutoCleanup,
  type AutoCleanupSettings,
  type AutoCleanupStatus,
  type AutoCleanupTrigger,
  type TimerPort,
} from './scheduler';
