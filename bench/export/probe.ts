import { writeGridFile } from '../../main/src/export/grid-writer.ts';
import { MANIFEST_COLUMNS } from '../../shared/columns.ts';
import { DEMO_ACCOUNTS } from '../../server/src/auth/demo-accounts.ts';
const origin = process.argv[2]!;
const { username, password } = DEMO_ACCOUNTS[0]!;
const token = ((await (await fetch(`${origin}/api/tracker/auth/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) })).json()) as { access_token: string }).access_token;
const rows: Record<string, unknown>[] = [];
for (let page = 0; page < 200; page += 1) {
  const r = await fetch(`${origin}/api/tracker/manifests/`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ pageInfo: { page, pageSize: 500 } }) });
  rows.push(...((await r.json()) as { content: Record<string, unknown>[] }).content);
}
const start = performance.now();
async function* pages() { for (let i = 0; i < rows.length; i += 500) { await Promise.resolve(); yield { totalElements: rows.length, rows: rows.slice(i, i + 500) }; } }
await writeGridFile('/tmp/prof/out.xlsx', { format: 'xlsx', sheetName: 'Manifests', columns: MANIFEST_COLUMNS, wasteLines: true, describe: () => [['Rows', 1]] }, pages(), { signal: new AbortController().signal, onProgress: () => undefined, spillPath: '/tmp/prof/spill.jsonl' });
console.log('writer alone', (performance.now() - start) / 1000, 's; maxRSS MB', process.resourceUsage().maxRSS / 1024);
