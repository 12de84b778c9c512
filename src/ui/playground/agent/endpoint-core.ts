/** What the endpoint client shares: the message shapes, EndpointError, and bounded reads of a body. */
export interface ChatSettings {
  /** Base URL (`…/v1`) or the full `…/chat/completions` URL. */
  readonly url: string;
  readonly model: string;
  readonly key: string;
  readonly stream: boolean;
  /** Longest wait for the response, and between two pieces of a stream. */
  readonly timeoutMs: number;
}

export interface ToolCallOut {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string | null;
  readonly tool_calls?: readonly ToolCallOut[];
}

export type ChatMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | AssistantMessage
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

export class EndpointError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly firstBytes: string,
  ) {
    super(message);
    this.name = 'EndpointError';
  }
}

const firstBytesShown = 300;
export const head = (text: string) =>
  text.length > firstBytesShown ? `${text.slice(0, firstBytesShown)}…` : text;

export async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
  stalled: () => EndpointError,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected before the reader is cancelled: a cancel settles the pending read (done) at once.
      reject(stalled());
      void reader.cancel();
    }, ms);
  });
  try {
    return await Promise.race([reader.read(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function parseJson(text: string, status: number, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new EndpointError(`The endpoint's ${what} is not JSON.`, status, head(text));
  }
}
