/**
 * A scripted model served on localhost for the playground e2e: it speaks OpenAI's chat-completions protocol
 * (`POST …/chat/completions`, streamed as SSE `chat.completion.chunk`s when the request says `stream: true`, else
 * one `chat.completion`), with tool calls. Its script decides each answer from the conversation it receives — the
 * tool results it saw, or, after the page's reload, the resume prompt (plan steps with their ids, the checks that
 * passed) — never from a counter of its own. Paths under `/fail/`, `/garbage/`, `/silent/` and `/stall/` misbehave
 * (and `failOnce` makes one request of a good path fail); under
 * `/distrustful/` it runs the check again after a restart although the handoff says it passed. A test may give its
 * own script (`startScriptedModel({ script })`), which then answers every well-behaved request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decide, type Msg, type Reply } from './scripted-model-script';

export interface LoggedRequest {
  readonly path: string;
  readonly stream: boolean;
  readonly authorization: string | undefined;
  readonly messages: Msg[];
  readonly toolNames: string[];
  /** The request's `tools` as JSON text, whole. */
  readonly tools: string;
  /** What the script answered: the tools it called (empty: a final answer); null when held or misbehaving. */
  reply: { content: string | null; calls: string[] } | null;
}

let ids = 0;
const callId = () => `call_${++ids}`;

function send(res: ServerResponse, stream: boolean, reply: Reply) {
  const calls = reply.calls.map((c) => ({
    id: callId(),
    type: 'function',
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const base = { id: `chatcmpl-${ids}`, created: Math.floor(Date.now() / 1000), model: 'scripted' };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: reply.content,
              ...(calls.length ? { tool_calls: calls } : {}),
            },
            finish_reason: finish,
          },
        ],
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: unknown, finishReason: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  for (const piece of (reply.content ?? '').match(/.{1,8}/gs) ?? []) chunk({ content: piece });
  calls.forEach((c, index) => {
    chunk({
      tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }],
    });
    const args = c.function.arguments;
    const cut = Math.ceil(args.length / 2);
    for (const part of [args.slice(0, cut), args.slice(cut)])
      chunk({ tool_calls: [{ index, function: { arguments: part } }] });
  });
  chunk({}, finish);
  res.end('data: [DONE]\n\n');
}

export interface ScriptedModel {
  readonly url: string;
  readonly requests: LoggedRequest[];
  /** Answers nothing to the first request this is true for (the connection stays open until the client goes). */
  holdOnce(when: (request: LoggedRequest) => boolean): void;
  readonly held: LoggedRequest[];
  /** Answers 500 (as `/fail/` does) to the first request this is true for: an endpoint that fails mid-run. */
  failOnce(when: (request: LoggedRequest) => boolean): void;
  close(): Promise<void>;
}

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'content-type, authorization',
  'access-control-allow-methods': 'POST, OPTIONS',
};

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

export async function startScriptedModel(
  options: { script?: (messages: Msg[]) => Reply } = {},
): Promise<ScriptedModel> {
  const requests: LoggedRequest[] = [];
  const held: LoggedRequest[] = [];
  let hold: ((request: LoggedRequest) => boolean) | null = null;
  let fail: ((request: LoggedRequest) => boolean) | null = null;
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    void bodyOf(req).then((text) => {
      const path = req.url ?? '/';
      const overloaded = () =>
        void res
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":{"message":"model overloaded, try later"}}');
      if (path.startsWith('/fail/')) return overloaded();
      if (path.startsWith('/garbage/'))
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('<html><body>Bad gateway page</body></html>');
      if (path.startsWith('/silent/')) return void open.add(res); // not even the status line
      if (path.startsWith('/stall/')) {
        open.add(res);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Thinking' } }] })}\n\n`,
        );
        return; // and nothing more
      }
      const body = JSON.parse(text) as {
        messages: Msg[];
        stream?: boolean;
        tools?: { function: { name: string } }[];
      };
      const logged: LoggedRequest = {
        path,
        stream: body.stream === true,
        authorization: req.headers.authorization,
        messages: body.messages,
        toolNames: (body.tools ?? []).map((t) => t.function.name),
        tools: JSON.stringify(body.tools ?? []),
        reply: null,
      };
      requests.push(logged);
      if (fail?.(logged)) {
        fail = null;
        return overloaded();
      }
      if (hold?.(logged)) {
        hold = null;
        held.push(logged);
        open.add(res);
        return;
      }
      const reply = options.script
        ? options.script(body.messages)
        : decide(body.messages, path.startsWith('/distrustful/'));
      logged.reply = { content: reply.content, calls: reply.calls.map((c) => c.name) };
      send(res, logged.stream, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    held,
    holdOnce(when) {
      hold = when;
    },
    failOnce(when) {
      fail = when;
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
