/**
 * Offline packs as stored: their records, their rows in page-sized chunks, and what a pack holds when it
 * opens. A pack is removed only when the user deletes it or a complete refresh replaces it, never to make
 * room.
 */
import type { GeneratorDetail, GeneratorRecord } from '../../../shared/api/index.ts';
import type { ManifestRecord } from '../../../shared/api/manifests.ts';
import { packChunks, packIndexParts, type OfflineDatabase, type PackRecord } from './database.ts';
import type { GeneratorOwnTotals, PackQuery, PackRows } from './engine-seam.ts';

const LIST_NOUN = { generators: 'Generators', manifests: 'Manifests' } as const;

const MEMBER_WORDS: Record<string, string> = {
  shippedYears: 'shipped in',
  cities: 'in city',
  naics: 'NAICS',
  ids: 'EPA ID',
  states: 'in state',
  wasteCodes: 'waste code',
  names: 'named',
  statuses: 'status',
  handlingCodes: 'handling code',
  generator_names: 'from generator',
  transporter_names: 'carried by',
  designated_facility_names: 'to facility',
  dot_id_nos: 'DOT ID',
  container_types: 'container type',
  handling_codes: 'handling code',
};

/** The pack's query in words: "Manifests from generator ACME, shipped 2024-01-01 to 2024-12-31". */
export function describeQuery(query: PackQuery): string {
  const parts: string[] = [];
  const fields = query.filterFields as Record<string, string[] | string | undefined>;
  for (const [member, value] of Object.entries(fields)) {
    if (Array.isArray(value) && value.length > 0) {
      parts.push(`${MEMBER_WORDS[member] ?? member} ${value.join(' or ')}`);
    }
  }
  for (const range of ['shipped', 'received'] as const) {
    const start = fields[`${range}_date_start`];
    const end = fields[`${range}_date_end`];
    if (typeof start === 'string' && typeof end === 'string') parts.push(`${range} ${start} to ${end}`);
    else if (typeof start === 'string') parts.push(`${range} from ${start}`);
    else if (typeof end === 'string') parts.push(`${range} until ${end}`);
  }
  if (query.searchKey !== '') parts.push(`matching “${query.searchKey}”`);
  return parts.length === 0
    ? `All ${LIST_NOUN[query.list].toLowerCase()}`
    : `${LIST_NOUN[query.list]} ${parts.join(', ')}`;
}

/** Packs the user sees: a refresh in progress stays behind the complete pack it replaces. */
export async function listPacks(db: OfflineDatabase): Promise<PackRecord[]> {
  const packs = await db.packs.toArray();
  return packs
    .filter((pack) => !pack.replaces || !packs.some((other) => other.id === pack.replaces))
    .sort((a, b) => a.createdAt - b.createdAt);
}

/** The refresh under way for a pack, if any. */
export async function refreshOf(db: OfflineDatabase, packId: string): Promise<PackRecord | undefined> {
  return (await db.packs.toArray()).find((pack) => pack.replaces === packId);
}

/** Removes a pack with its rows, progress and indexes, in one transaction. */
export async function deletePack(db: OfflineDatabase, packId: string): Promise<void> {
  await db.transaction(
    'rw',
    [db.packs, db.chunks, db.progress, db.packIndexes, db.packIndexParts],
    async () => {
      await packChunks(db, packId).delete();
      await db.progress.delete(packId);
      await db.packIndexes.delete(packId);
      await packIndexParts(db, packId).delete();
      await db.packs.delete(packId);
    },
  );
}

/**
 * Every row a pack holds, deduplicated by public key (a page stored twice holds the same rows), in a defined
 * order that stored indexes rely on: chunks in key order ([packId+part+page]), rows in their chunk's order,
 * each key where it first came.
 */
export async function loadPackRows(db: OfflineDatabase, pack: PackRecord): Promise<PackRows> {
  const generators = new Map<string, GeneratorRecord>();
  const details = new Map<string, GeneratorDetail>();
  const manifests = new Map<string, ManifestRecord>();
  const totals = new Map<string, GeneratorOwnTotals>();
  let detailChunks = 0;
  let totalsChunks = 0;
  await packChunks(db, pack.id).each((chunk) => {
    if (chunk.part === 'details') detailChunks += 1;
    if (chunk.totals) {
      totalsChunks += 1;
      for (const own of chunk.totals) totals.set(own.epa_handler_id, own);
    }
    for (const row of chunk.rows) {
      if (chunk.part === 'details') {
        const detail = row as GeneratorDetail;
        details.set(detail.generator_data.epa_handler_id, detail);
      } else if (chunk.part === 'generators' || pack.list === 'generators') {
        const generator = row as GeneratorRecord;
        generators.set(generator.epa_handler_id ?? '', generator);
      } else {
        const manifest = row as ManifestRecord;
        manifests.set(manifest.manifest_tracking_number ?? '', manifest);
      }
    }
  });
  return {
    list: pack.list,
    generators: [...generators.values()],
    details: [...details.values()],
    manifests: [...manifests.values()],
    // Totals only when every details chunk carried them (a pack made before they were kept has none).
    ...(pack.list === 'generators' && totalsChunks === detailChunks ? { totals: [...totals.values()] } : {}),
  };
}
