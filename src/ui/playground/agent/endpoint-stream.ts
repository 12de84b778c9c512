/** An SSE stream of `chat.completion.chunk` objects read into one assistant message (tool calls by `index`). */
import { EndpointError, head, parseJson, readWithin, type AssistantMessage } from './endpoint-core';

interface Delta {
  content?: string | null;
  tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
}

/** Reads an SSE stream of chat.completion.chunk objects into one assistant message. */
export async function readStream(response: Response, ms: number, status: number): Promise<AssistantMessage> {
  if (!response.body) throw new EndpointError('The endpoint sent an empty stream.', status, '');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let raw = '';
  let buffer = '';
  let content = '';
  let finished = false;
  const calls: { id: string; name: string; arguments: string }[] = [];
  const onData = (data: string) => {
    if (data === '[DONE]') {
      finished = true;
      return;
    }
    const chunk = parseJson(data, status, 'stream event') as {
      choices?: { delta?: Delta; finish_reason?: string | null }[];
      error?: { message?: string };
    };
    if (chunk.error)
      throw new EndpointError(
        `The stream reported an error: ${chunk.error.message ?? '?'}`,
        status,
        head(raw),
      );
    const choice = chunk.choices?.[0];
    if (!choice) throw new EndpointError('A stream event has no choices[0].', status, head(data));
    if (choice.delta?.content) content += choice.delta.content;
    for (const part of choice.delta?.tool_calls ?? []) {
      const i = part.index ?? calls.length;
      const call = (calls[i] ??= { id: '', name: '', arguments: '' });
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
    }
    if (choice.finish_reason) finished = true;
  };
  for (;;) {
    const { done, value } = await readWithin(reader, ms, () => {
      return new EndpointError(`The stream stalled: nothing for ${ms / 1000} s.`, status, head(raw));
    });
    if (value) {
      const text = decoder.decode(value, { stream: true });
      raw += raw.length < 4_096 ? text : '';
      buffer += text;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('data:')) onData(line.slice(5).trim());
        else if (line !== '' && !line.startsWith(':') && !/^(event|id|retry):/.test(line))
          throw new EndpointError('The stream is not server-sent events.', status, head(raw));
      }
    }
    if (done) break;
  }
  if (buffer.trim().startsWith('data:')) onData(buffer.trim().slice(5).trim());
  if (!finished) throw new EndpointError('The stream ended before the answer did.', status, head(raw));
  const toolCalls = calls
    .filter((c) => c.name !== '')
    .map((c, i) => ({
      id: c.id || `call_${i}`,
      type: 'function' as const,
      function: { name: c.name, arguments: c.arguments },
    }));
  return {
    role: 'assistant',
    content: content === '' ? null : content,
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
  };
}
