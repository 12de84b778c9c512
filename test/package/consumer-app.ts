/**
 * The consumer fixture's app, as a playground developer would write it after `npm install agent-brain`: an
 * index.html, a main.ts and a tsconfig — and no bundler configuration. The files are generated into a temporary
 * directory at test time (so the repository's own tsconfig never type-checks them against the source), then
 * type-checked with `tsc --noEmit` and built with Vite there.
 *
 * The page reports on `document.body.dataset.result` (JSON) once `openBrain()` settled and its calls finished:
 * `#write` records a session, task, step, checkpoint and decision; `#read` reads them back; both also call the
 * package's model tools and render markdown through the `agent-brain/markdown` subpath (loaded on demand).
 */
export const consumerFiles: Readonly<Record<string, string>> = {
  'index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <link rel="icon" href="data:," />
    <title>agent-brain consumer</title>
  </head>
  <body>
    <pre id="out">starting…</pre>
    <script type="module" src="/src/main.ts"></script>
  </body>
</html>
`,
  'tsconfig.json': `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        strict: true,
        noEmit: true,
        // Stricter than create-vite's templates (true): tsc checks every declaration the package publishes, so one
        // naming a package the consumer does not have (a devDependency such as `yaml`) fails here.
        skipLibCheck: false,
        isolatedModules: true,
        verbatimModuleSyntax: true,
      },
      include: ['src'],
    },
    null,
    2,
  )}\n`,
  'src/main.ts': `import { brainTools, callBrainTool, isBrainError, openBrain, type Brain } from 'agent-brain';

const edit = { path: 'src/date.ts', before: 'weekStart = 1\\n', after: 'weekStart = 0\\n' };

async function write(brain: Brain) {
  const { id: sessionId } = await brain.startSession({ title: 'Fix the flaky date test' });
  const { id: taskId } = await brain.startTask({ sessionId, title: 'Reproduce the failure' });
  const step = await brain.recordStep({ taskId, tool: 'edit_file', params: { path: edit.path }, status: 'ok' });
  const entry = await brain.checkpointFile({ taskId, stepId: step.id, ...edit });
  await brain.recordFileChange({ sessionId, taskId, path: edit.path, checkpointEntryId: entry.id });
  const tool = await callBrainTool(brain, 'record_decision', {
    sessionId, taskId, text: 'Weeks start on Sunday', why: 'The test fixture is US-locale',
  });
  // The memory tools need a project folder: an OPFS one, as a playground without a picked folder has.
  await brain.openProject({ kind: 'opfs', name: 'consumer-project', create: true });
  await brain.createAgentFolder();
  const tools = brainTools(brain, { sessionId, taskId });
  // As a model would: read the file (createAgentFolder wrote its template), then write with the version read.
  const read = await tools.call('read_memory', { file: 'PROJECT_MEMORY.md' });
  const version = /\\(version (.+?), \\d+ characters\\)/.exec(read.text)?.[1] ?? null;
  const wrote = await tools.call('write_memory', {
    file: 'PROJECT_MEMORY.md', text: '# Project memory\\n\\n- Weeks start on Sunday in tests.\\n', expectedVersion: version,
  });
  return { sessionId, taskId, stepId: step.id, entryId: entry.id, tool: tool.ok, memory: wrote.ok || wrote.text };
}

async function read(brain: Brain) {
  const [session] = await brain.listSessions();
  if (!session) return { sessions: 0 };
  const [task] = await brain.listTasks(session.id);
  if (!task) return { sessions: 1, tasks: 0 };
  const steps = await brain.listSteps(task.id);
  const [entry] = await brain.listCheckpoints(task.id);
  const body = entry ? await brain.readCheckpoint(entry.id) : null;
  const resume = await callBrainTool(brain, 'read_resume_point', { sessionId: session.id });
  await brain.openProject({ kind: 'opfs', name: 'consumer-project' });
  const memory = await callBrainTool(brain, 'read_memory', { file: 'PROJECT_MEMORY.md' });
  return {
    session: session.title,
    task: task.title,
    steps: steps.map((s) => s.tool),
    checkpoint: body && { path: body.path, before: body.before, after: body.after },
    resumeMentionsDecision: resume.ok && resume.text.includes('Weeks start on Sunday'),
    memory: memory.ok ? memory.text.includes('- Weeks start on Sunday in tests.') : memory.text,
  };
}

async function main() {
  const started = performance.now();
  try {
    const brain = await openBrain({ dbName: 'consumer.db' });
    const tools = brainTools(brain).openai.map((t) => t.function.name);
    const data = location.hash === '#write' ? await write(brain) : await read(brain);
    const { renderMarkdown } = await import('agent-brain/markdown');
    const markdown = renderMarkdown('# Resumed\\n\\n<script>alert(1)</script>');
    await brain.close();
    return { ok: true, data, tools, markdown };
  } catch (error) {
    return {
      ok: false,
      brainError: isBrainError(error),
      code: isBrainError(error) ? error.code : null,
      details: isBrainError(error) ? error.details : null,
      message: error instanceof Error ? error.message : String(error),
      ms: performance.now() - started,
    };
  }
}

// Typed for real: a wrong call is a compile error (tsc fails on an unused expectation if the types were any).
export async function wrongCalls(brain: Brain) {
  // @ts-expect-error a task needs a sessionId
  await brain.startTask({ title: 'no session' });
  // @ts-expect-error no such tool
  brainTools(brain, { only: ['delete_everything'] });
}

void main().then((result) => {
  document.body.dataset['result'] = JSON.stringify(result);
  document.querySelector('#out')!.textContent = JSON.stringify(result, null, 2);
});
`,
};
