/**
 * The offline row source on its own: a chunk is answered only once the writer has written it and asks for
 * more; one chunk waits at a time; a cancel or a failure refuses the chunk on its way; a renderer that stops
 * sending fails the export instead of holding it open; and a chunk's rows are checked against their list.
 */
import { describe, expect, it } from 'vitest';
import { moreRowsThanCounted } from '../../../main/src/export/errors.ts';
import { ChunkFeed, STOPPED_ARRIVING, parseChunk } from '../../../main/src/export/offline-rows.ts';

const page = (count: number) => ({
  totalElements: 10,
  rows: Array.from({ length: count }, (_, i) => ({ epa_handler_id: `CAD${i}` })),
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The rows of the page the writer took next; none when the feed ended. */
async function nextRows(reader: ReturnType<ChunkFeed['pages']>): Promise<readonly unknown[]> {
  const taken = await reader.next();
  return taken.done ? [] : taken.value.rows;
}

describe('the chunk feed', () => {
  it('answers a chunk once the writer has written it and asks for the next', async () => {
    const feed = new ChunkFeed('generators');
    const reader = feed.pages(new AbortController().signal);
    let answered = false;
    const pushed = feed.push(page(3)).then(() => (answered = true));
    expect(await nextRows(reader)).toHaveLength(3);
    await tick();
    // Still being written: the renderer's call is not answered yet.
    expect(answered).toBe(false);
    const next = reader.next();
    await pushed;
    expect(answered).toBe(true);
    feed.end();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(feed.received).toBe(3);
  });

  it('fails the export at a chunk that goes past the total the first chunk gave', async () => {
    const feed = new ChunkFeed('generators');
    const reader = feed.pages(new AbortController().signal);
    const first = feed.push(page(8));
    expect(await nextRows(reader)).toHaveLength(8);
    const next = reader.next();
    await first;
    await expect(feed.push({ ...page(3), totalElements: 1_000 })).rejects.toThrow(moreRowsThanCounted(10));
    await expect(next).rejects.toThrow(moreRowsThanCounted(10));
  });

  it('refuses a second chunk sent before the first was written', async () => {
    const feed = new ChunkFeed('generators');
    void feed.push(page(1));
    await expect(feed.push(page(1))).rejects.toThrow('before the previous one was written');
  });

  it('cancelled, answers the chunk being written and refuses every chunk after', async () => {
    const feed = new ChunkFeed('generators');
    const controller = new AbortController();
    const reader = feed.pages(controller.signal);
    const pushed = feed.push(page(2));
    expect(await nextRows(reader)).toHaveLength(2);
    controller.abort(new Error('cancelled'));
    await expect(reader.next()).rejects.toThrow('cancelled');
    await expect(pushed).resolves.toBeUndefined();
    await expect(feed.push(page(1))).rejects.toThrow('The export has ended.');
  });

  it('refuses a chunk the writer never took when the export fails before it reads any', async () => {
    const feed = new ChunkFeed('generators');
    const pushed = feed.push(page(2));
    feed.fail(new Error('The disk is full.'));
    await expect(pushed).rejects.toThrow('The disk is full.');
  });

  it('fails the export when the renderer stops sending', async () => {
    const feed = new ChunkFeed('generators', 20);
    const reader = feed.pages(new AbortController().signal);
    await expect(reader.next()).rejects.toThrow(STOPPED_ARRIVING);
  });

  it('waits as long as chunks keep coming, each within the wait', async () => {
    const feed = new ChunkFeed('generators', 50);
    const reader = feed.pages(new AbortController().signal);
    const rows: number[] = [];
    const reading = (async () => {
      for await (const received of reader) rows.push(received.rows.length);
    })();
    for (let chunk = 0; chunk < 4; chunk += 1) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      await feed.push(page(chunk + 1));
    }
    feed.end();
    await reading;
    expect(rows).toEqual([1, 2, 3, 4]);
  });
});

describe('checking a chunk', () => {
  it('gives the rows of the list as parsed, numbers sent as text read as numbers', () => {
    expect(parseChunk('manifests', [{ manifest_tracking_number: '1', container_count: '1,204' }], 0)).toEqual(
      {
        ok: true,
        rows: [{ manifest_tracking_number: '1', container_count: 1204 }],
      },
    );
  });

  it.each([
    [
      'a waste line without its fields',
      [{ waste_lines: [{ waste_line_number: 1 }] }],
      'row 8, waste_lines.0.',
    ],
    [
      'a generator member in a manifest',
      [{ epa_handler_id: 'CAD1' }],
      'row 8: no such member: epa_handler_id',
    ],
    ['null for a row', [null], 'row 8: '],
  ])('refuses %s, naming the row counted from the export’s first', (_name, rows, where) => {
    const parsed = parseChunk('manifests', rows, 7);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(`(${where}`);
  });
});
