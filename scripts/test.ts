/**
 * npm test — every check and every test, in the time two cores allow. Two lanes run at once:
 *
 * - the end-to-end suite (Playwright), from the start: it waits on timers and on the network as much as it
 *   computes, it judges how soon the app notices a hanging server, and it is the longest step, so it runs
 *   at the normal priority and prints its report as it goes;
 * - everything else, one after another at a lower scheduling priority, taking the CPU the browser tests
 *   leave: lint beside the type check, then formatting, the import graph and the Electron scan, then the
 *   unit and integration suite (Vitest) with two workers, so one file's waits overlap another's work. Their
 *   reports are printed whole as each ends, so no report is cut into another.
 *
 * Every step runs even after one fails; the exit code is non-zero when any failed, and the summary names
 * each step with its time. `npm run test:unit` and `npm run test:e2e` still run one suite alone.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

interface Step {
  name: string;
  script: string;
  /** Passed on to the script. */
  args?: string[];
  /** Printed as it comes (only one step at a time may) rather than whole when it ends. */
  live?: boolean;
  /** Nice value: higher yields the CPU to the steps beside it. */
  niceness?: number;
}

interface Outcome {
  name: string;
  ok: boolean;
  seconds: number;
}

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(step: Step): Promise<Outcome> {
  const started = performance.now();
  const args = step.args ? ['--', ...step.args] : [];
  const child = spawn(NPM, ['run', '--silent', step.script, ...args], {
    stdio: step.live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  // Set before the step has started any process of its own, so its workers inherit it.
  if (step.niceness !== undefined && child.pid !== undefined) setPriority(child.pid, step.niceness);
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      if (!step.live) {
        process.stdout.write(`\n── ${step.name} (npm run ${step.script}) ──\n`);
        process.stdout.write(Buffer.concat(output));
      }
      const ok = code === 0;
      if (!ok) process.stdout.write(`\n${step.name} failed (${signal ?? `exit code ${code}`})\n`);
      resolve({ name: step.name, ok, seconds });
    });
  });
}

/** Below the browser tests: these take only the CPU that they leave. */
const BACKGROUND = 10;

async function checksThenUnitTests(): Promise<Outcome[]> {
  const outcomes = await Promise.all([
    run({ name: 'lint', script: 'lint', niceness: BACKGROUND }),
    run({ name: 'type check', script: 'typecheck', niceness: BACKGROUND }),
  ]);
  for (const step of [
    { name: 'formatting', script: 'format:check' },
    { name: 'import graph', script: 'check:structure' },
    { name: 'Electron scan', script: 'scan:electron' },
  ]) {
    outcomes.push(await run({ ...step, niceness: BACKGROUND }));
  }
  outcomes.push(
    await run({
      name: 'unit and integration tests',
      script: 'test:unit',
      args: ['--maxWorkers=2'],
      niceness: BACKGROUND,
    }),
  );
  return outcomes;
}

async function main(): Promise<void> {
  const [endToEnd, others] = await Promise.all([
    run({ name: 'end-to-end tests', script: 'test:e2e', live: true }),
    checksThenUnitTests(),
  ]);
  const outcomes = [...others, endToEnd];

  process.stdout.write('\n── npm test ──\n');
  for (const { name, ok, seconds } of outcomes) {
    process.stdout.write(`${ok ? 'passed' : 'FAILED'}  ${name} (${seconds.toFixed(0)} s)\n`);
  }
  process.exitCode = outcomes.every((outcome) => outcome.ok) ? 0 : 1;
}

await main();
