/**
 * npm test — every check and every test, in the time two cores allow:
 *
 * 1. the static checks: lint and the type check at once (each keeps one core busy), then formatting, the
 *    import graph and the Electron scan;
 * 2. the unit and integration suite (Vitest) beside the end-to-end suite (Playwright). The browser tests
 *    wait on timers and on the network as much as they compute, and they judge how soon the app notices a
 *    hanging server; so Vitest runs at a lower scheduling priority and takes only the CPU the browser tests
 *    leave, and its output is printed whole once it ends, so neither report is cut into the other.
 *
 * Every step runs even after one fails; the exit code is non-zero when any failed, and the summary names
 * each step with its time. `npm run test:unit` and `npm run test:e2e` still run one suite alone.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

interface Step {
  name: string;
  script: string;
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
  const child = spawn(NPM, ['run', '--silent', step.script], {
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

async function main(): Promise<void> {
  const outcomes: Outcome[] = [];
  outcomes.push(
    ...(await Promise.all([
      run({ name: 'lint', script: 'lint' }),
      run({ name: 'type check', script: 'typecheck' }),
    ])),
  );
  for (const step of [
    { name: 'formatting', script: 'format:check' },
    { name: 'import graph', script: 'check:structure' },
    { name: 'Electron scan', script: 'scan:electron' },
  ]) {
    outcomes.push(await run(step));
  }
  outcomes.push(
    ...(await Promise.all([
      run({ name: 'unit and integration tests', script: 'test:unit', niceness: 10 }),
      run({ name: 'end-to-end tests', script: 'test:e2e', live: true }),
    ])),
  );

  process.stdout.write('\n── npm test ──\n');
  for (const { name, ok, seconds } of outcomes) {
    process.stdout.write(`${ok ? 'passed' : 'FAILED'}  ${name} (${seconds.toFixed(0)} s)\n`);
  }
  process.exitCode = outcomes.every((outcome) => outcome.ok) ? 0 : 1;
}

await main();
