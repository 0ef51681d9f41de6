/**
 * npm run data:import: bad arguments get a clear message, the usage line and exit code 2, before a database
 * client is loaded; an import prints each file's counts and where the report is; a file that cannot be read
 * is named with why, the rest is imported, and the exit code is 1; a database of another kind, or a file
 * that is no database, is refused without being touched; a path with nothing to import is refused before
 * any database is made; a second import while one runs is refused in a sentence, and a killed import leaves
 * no lock behind; Ctrl-C stops an import after its batch, saying so, and the same command resumes it; so it
 * does after a write the disk refused, said in a sentence.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandRefusal } from '../../helpers/command-refusal.ts';
import { importLockPath } from '../../../server/src/db/import-lock.ts';
import { FIXTURES } from './import-support.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'server/src/cli/data-import.ts');

let dir: string;

function run(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
}

/** The command run where loading a database client fails it: a refusal of its arguments loads none. */
const refusal = (...args: string[]) => commandRefusal(CLI, args);

/**
 * A folder holding one EM_MANIFEST file of 50,000 manifests: long enough to stop an import in the middle
 * (ten rows to a transaction, a signal is seen between the file's chunks of 64 KiB, as in any import).
 */
function longImport(): string {
  const files = mkdtempSync(join(dir, 'long-'));
  const rows = Array.from({ length: 50_000 }, (_, index) => {
    const tracking = `${String(index + 1).padStart(9, '0')}ELC`;
    return `"${tracking}","2026-11-20","2026-11-02","2026-11-04","TXD000000001","Long Run Chemical","TX","TXD000000002","Long Run Landfill","1.5"`;
  });
  writeFileSync(
    join(files, 'EM_MANIFEST.csv'),
    [
      '"MANIFEST TRACKING NUMBER","UPDATED DATE","SHIPPED DATE","RECEIVED DATE","GENERATOR ID","GENERATOR NAME","GENERATOR LOCATION STATE","DES FACILITY ID","DES FACILITY NAME","TOTAL QUANTITY TONS"',
      ...rows,
    ].join('\r\n'),
  );
  return files;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'data-import-cli-'));
  mkdirSync(join(dir, 'DIR'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run data:import', () => {
  it.each([
    ['no arguments', [], /--db FILE\|postgres:\/\/… is required/],
    ['no files', ['--db', 'OUT'], /name at least one file or folder to import/],
    ['an unknown option', ['--db', 'OUT', '--rows', '5', 'x.csv'], /Unknown option '--rows'/],
    [
      'a zero batch',
      ['--db', 'OUT', '--batch-rows', '0', 'x.csv'],
      /--batch-rows must be a whole number from 1 to 20,000/,
    ],
    [
      'a batch larger than its memory holds',
      ['--db', 'OUT', '--batch-rows', '50000', 'x.csv'],
      /--batch-rows must be a whole number from 1 to 20,000: a batch is held in memory whole/,
    ],
    ['a missing folder for the database', ['--db', 'missing/epa.db', 'x.csv'], /does not exist/],
    [
      'a folder for the database',
      ['--db', 'DIR', 'x.csv'],
      /DIR is a folder: --db names the database file \(such as .*DIR\/tracker\.db\)/,
    ],
    [
      'a missing folder for the report',
      ['--db', 'OUT', '--report', 'missing/report.csv', 'x.csv'],
      /the folder .*missing for the report does not exist/,
    ],
    [
      'a folder for the report',
      ['--db', 'OUT', '--report', 'DIR', 'x.csv'],
      /DIR is a folder: --report names the file the report is written to/,
    ],
  ])('refuses %s', (_name, args, message) => {
    const result = refusal(
      ...args.map((arg) =>
        arg === 'OUT' || arg === 'DIR' || arg.endsWith('.db') || arg.startsWith('missing/')
          ? join(dir, arg)
          : arg,
      ),
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('usage: npm run data:import -- --db FILE');
    expect(existsSync(join(dir, 'OUT'))).toBe(false);
  });

  it('imports, prints each file’s counts, names the report, and says which file it could not read', () => {
    const unknown = join(dir, 'mystery.csv');
    writeFileSync(unknown, 'COLOR,SHAPE\nred,round\n');
    const db = join(dir, 'epa.db');
    const result = run('--db', db, join(FIXTURES, 'week1'), unknown);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/mystery\.csv[\s\S]*not read: the header matches none of EM_MANIFEST/);
    expect(result.stdout).toMatch(
      /file\s+table\s+read\s+stored\s+updated\s+unchanged\s+skipped\s+rejected\s+pending/,
    );
    expect(result.stdout).toMatch(/EM_MANIFEST\.csv\s+EM_MANIFEST\s+8\s+3\s+1\s+0\s+0\s+4\s+0/);
    expect(result.stdout).toMatch(/all files\s+28\s+14\s+3\s+1\s+0\s+9\s+1/);
    expect(result.stderr).toMatch(/1 generator\(s\) created from manifests/);
    // Into a new database the finish builds what the server reads, each step said with its time.
    expect(result.stderr).toMatch(
      /finishing, every row read:\n {2}totals of each manifest… \d+ s\n {2}per-generator sets of codes, years and methods… \d+ s\n {2}query indexes… \d+ s\n {2}search index… \d+ s\n {2}lookup lists… \d+ s\n {2}waste lines as the API sends them… \d+ s\n {2}tallies… \d+ s\n {2}planner statistics… \d+ s\n/,
    );
    const report = /listed in (.+\.csv)/.exec(result.stderr)?.[1] ?? '';
    expect(readFileSync(report, 'utf8')).toContain('mystery.csv,1,,"file not read: the header matches none');
  });

  it('refuses a file that is not a tracker database and leaves it as it was', () => {
    const other = join(dir, 'other.db');
    const result = spawnSync(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(other)}); d.exec('CREATE TABLE t (x)'); d.close();`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(result.status).toBe(0);
    const before = readFileSync(other);
    const refused = run('--db', other, join(FIXTURES, 'week2'));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`${other} is not a tracker database`);
    expect(readFileSync(other).equals(before)).toBe(true);
  });

  it('refuses a file that is not SQLite at all, leaving it as it was', () => {
    const csv = join(dir, 'EM_MANIFEST.csv');
    writeFileSync(csv, 'MANIFEST TRACKING NUMBER\n000000001ELC\n');
    const refused = run('--db', csv, join(FIXTURES, 'week2'));
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe(`${csv} is not a tracker database (not a SQLite file)`);
    expect(readFileSync(csv, 'utf8')).toBe('MANIFEST TRACKING NUMBER\n000000001ELC\n');
    expect(existsSync(importLockPath(csv))).toBe(false);
  });

  it('refuses a second import while one runs, in a sentence, and runs once the first is killed', async () => {
    const db = join(dir, 'locked.db');
    // An import's lock, held by a process of its own, as the import holds it (db/import-lock.ts).
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { takeImportLock } from ${JSON.stringify(join(ROOT, 'server/src/db/import-lock.ts'))};
         const lock = takeImportLock(${JSON.stringify(db)}); console.log('held'); setInterval(() => lock, 1000);`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((held, failed) => {
        holder.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('held')) held();
        });
        holder.on('exit', (code) => failed(new Error(`the lock's holder exited with ${code}`)));
      });
      const refused = run('--db', db, join(FIXTURES, 'week1'));
      expect(refused.status).toBe(1);
      expect(refused.stderr.trim()).toBe(`another import or load is writing into ${db}: wait until it ends`);
      expect(existsSync(db)).toBe(false);
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((ended) => holder.once('close', ended));
    // Killed, it holds nothing: the operating system let the lock go with the process.
    const imported = run('--db', db, join(FIXTURES, 'week1'));
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/all files\s+27\s+14\s+3\s+1\s+0\s+8\s+1/);
  });

  it('stops at Ctrl-C after the batch it is writing, says so, and the same command resumes there', async () => {
    const files = longImport();
    const db = join(dir, 'stopped.db');
    const importing = spawn(process.execPath, [CLI, '--db', db, '--batch-rows', '10', files], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let asked = false;
    importing.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // At the first progress line: a batch is stored.
      if (!asked && stderr.includes('rows (')) {
        asked = true;
        importing.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((ended) => importing.on('close', ended));
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('Ctrl-C: stopping after the batch being written');
    const stopped =
      /Stopped after ([\d,]+) rows of this run, all of them kept\. Run the same command again/.exec(stderr);
    const kept = Number(stopped?.[1]?.replaceAll(',', ''));
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(50_000);
    expect(existsSync(`${db}-journal`)).toBe(false);

    const resumed = run('--db', db, files);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`EM_MANIFEST, resuming after row ${kept.toLocaleString('en-US')}`);
    expect(resumed.stdout).toMatch(/all files\s+50,000\s+50,000\s+0\s+0\s+0\s+0\s+0/);
  });

  it('says a write the disk refused in a sentence, keeping every batch before, and resumes after', () => {
    const files = longImport();
    const db = join(dir, 'no-room.db');
    // The file may not grow past 3 MB (ulimit -f, in KiB): the schema fits, the rows do not.
    const refused = spawnSync(
      'bash',
      [
        '-c',
        `ulimit -f 3000; exec "$0" "$@"`,
        process.execPath,
        CLI,
        '--db',
        db,
        '--batch-rows',
        '1000',
        files,
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(refused.status, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(
      `${db} could not be written: disk I/O error. Every batch before is kept: free space on its disk ` +
        '(or mend the disk), then run the same command again to resume.',
    );
    expect(refused.stderr).not.toMatch(/^\s+at /m);
    const resumed = run('--db', db, files);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/EM_MANIFEST, resuming after row [1-9]/);
    expect(resumed.stdout).toMatch(/all files\s+50,000\s+50,000\s+0\s+0\s+0\s+0\s+0/);
  });

  it.each([
    ['a path that does not exist', () => join(dir, 'nowhere'), /^no file or folder at .*nowhere$/],
    [
      'a folder with nothing to import',
      () => mkdtempSync(join(dir, 'empty-')),
      /^nothing to import: .*empty-\w+ holds no \.csv, \.txt, \.json, \.jsonl, \.ndjson or \.zip file/,
    ],
    [
      'a file of another kind named on its own',
      () => {
        const path = join(mkdtempSync(join(dir, 'named-')), 'notes.pdf');
        writeFileSync(path, '%PDF-1.7');
        return path;
      },
      /^.*notes\.pdf: not a \.csv, \.txt, \.json, \.jsonl, \.ndjson or \.zip file$/,
    ],
    [
      'a folder of files it cannot read, listing each',
      () => {
        const folder = mkdtempSync(join(dir, 'unreadable-'));
        writeFileSync(join(folder, 'README.pdf'), '%PDF-1.7');
        writeFileSync(join(folder, 'EM_MANIFEST.zip'), 'PK\u0003\u0004 cut short');
        return folder;
      },
      /^nothing to import: .*unreadable-\w+ holds no \.csv.*\n {2}.*EM_MANIFEST\.zip: .*is not a zip file, or one cut short \(no end of central directory\)\n {2}.*README\.pdf: not a \.csv, \.txt, \.json, \.jsonl, \.ndjson or \.zip file$/,
    ],
  ])('refuses %s before making a database', (_name, input, message) => {
    const db = join(dir, 'never.db');
    const refused = run('--db', db, input());
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toMatch(message);
    expect(existsSync(db)).toBe(false);
  });
});
