import { BrainError } from './errors';
import { jsonText } from './json-bounds';
import type { MessageId, SessionId, StepId, SummaryId, TaskId } from './ids';

export const taskStates = ['running', 'waiting_user', 'done', 'failed', 'superseded'] as const;
export type TaskState = (typeof taskStates)[number];

export const referenceKinds = ['child', 'reference'] as const;
export type ReferenceKind = (typeof referenceKinds)[number];

export const messageRoles = ['user', 'assistant', 'system', 'tool'] as const;
export type MessageRole = (typeof messageRoles)[number];

export const stepStatuses = ['ok', 'error', 'running', 'cancelled'] as const;
export type StepStatus = (typeof stepStatuses)[number];

/**
 * Plain JSON: what step params and results may hold (they cross the worker and land in SQLite as text). Nested at
 * most `maxJsonDepth` (64) levels: the lib and the engine refuse deeper values (`checkJson`, src/core/json-bounds.ts).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Session {
  readonly id: SessionId;
  readonly title: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The task the session is working on now; a protected root for cleanup. */
  readonly currentTaskId: TaskId | null;
}

export interface TaskReference {
  readonly to: TaskId;
  readonly kind: ReferenceKind;
}

export interface Task {
  readonly id: TaskId;
  readonly sessionId: SessionId | null;
  readonly title: string;
  readonly state: TaskState;
  readonly parentTaskId: TaskId | null;
  readonly pinned: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Outgoing references: tasks this one still needs (its child agents, tasks it builds on). */
  readonly references: readonly TaskReference[];
  /** Set once cleanup removed the task's heavy data (steps, checkpoint bodies). */
  readonly heavyRemovedAt: number | null;
}

export interface Message {
  readonly id: MessageId;
  readonly sessionId: SessionId;
  readonly taskId: TaskId | null;
  readonly role: MessageRole;
  readonly content: string;
  readonly createdAt: number;
}

export interface Step {
  readonly id: StepId;
  readonly taskId: TaskId;
  readonly seq: number;
  readonly tool: string;
  readonly params: Json;
  readonly result: Json;
  readonly status: StepStatus;
  readonly createdAt: number;
  /**
   * Present only when part of the stored step could not be read back (its row was changed outside agent-brain):
   * for each such part, why (e.g. `"params is not valid JSON"`). That part reads as `null`; the rest of the step
   * is as stored.
   */
  readonly unreadable?: { readonly params?: string; readonly result?: string };
}

/** A digest of a session or task: light data, kept by cleanup. */
export interface Summary {
  readonly id: SummaryId;
  readonly sessionId: SessionId;
  readonly taskId: TaskId | null;
  readonly kind: string;
  readonly content: string;
  readonly createdAt: number;
}

function oneOf<T extends string>(values: readonly T[], value: unknown, what: string): T {
  if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
  throw new BrainError(
    'InvalidArgument',
    `${what} must be one of ${values.join(', ')}; got ${JSON.stringify(value)}.`,
  );
}

export const parseTaskState = (value: unknown) => oneOf(taskStates, value, 'Task state');
export const parseReferenceKind = (value: unknown) => oneOf(referenceKinds, value, 'Reference kind');
export const parseMessageRole = (value: unknown) => oneOf(messageRoles, value, 'Message role');
export const parseStepStatus = (value: unknown) => oneOf(stepStatuses, value, 'Step status');

export function requireText(value: unknown, what: string, maxLength = 10_000): string {
  if (typeof value !== 'string') throw new BrainError('InvalidArgument', `${what} must be a string.`);
  if (value.length > maxLength) {
    throw new BrainError('TooLarge', `${what} is ${value.length} characters; the limit is ${maxLength}.`);
  }
  return value;
}

export function requireId(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new BrainError(
      'InvalidArgument',
      `${what} must be an id returned by the engine; got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/** The engine's default bound on one step's params or result as JSON text (`EngineLimits.maxStepJsonChars`). */
export const defaultMaxStepJsonChars = 8_000_000;

/**
 * Serialises step params/results: plain JSON nested at most `maxJsonDepth` levels and at most `maxChars`
 * characters long, or a typed refusal (`checkJson`) — never a mangled value, a stack overflow or a hang.
 * `what` names the value in messages and paths (`params`, `result`).
 */
export function jsonToText(value: unknown, what: string, maxChars: number): string {
  return jsonText(value === undefined ? null : value, what, maxChars);
}
