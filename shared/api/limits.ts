/**
 * The API's limits as plain data, with no zod: the export's reader thread checks rows by them, and every
 * module a worker thread loads is paid for again in its own memory. shared/api/common.ts re-exports them
 * beside the schemas built on them.
 */

/** Limits the spec leaves "not shown" (spec 8); decided in docs/api.md. */
export const LIMITS = {
  pageSizeMax: 500,
  searchKeyMax: 200,
  lookupSearchMax: 100,
  filterValuesMax: 1000,
  lookupPageSize: 50,
  bodyBytesMax: 256 * 1024,
  /**
   * Characters of one text field of a list row or waste line: EPA's widest field (RCRAInfo's PublicNotes,
   * VARCHAR2(4000)); the app refuses a row past it, from the server or from the renderer.
   */
  fieldTextMax: 4000,
  /** Waste lines of one manifest: far more than any manifest's continuation sheets hold. */
  wasteLinesMax: 1000,
  /**
   * Bytes of one answer the app reads at most, by kind (main/src/api/answer-limit.ts). A page of
   * pageSizeMax manifests with their waste lines is about 0.7 MB, a generator's profile a few KB, a lookup
   * page of lookupPageSize values a few KB, anything else (totals, sign-in, a problem) under 1 KB: each
   * limit is far above what a working server sends and far below what would strain the app.
   */
  answerBytesMax: { page: 16 * 1024 * 1024, detail: 4 * 1024 * 1024, lookup: 1024 * 1024, small: 256 * 1024 },
} as const;

/** What a list row or waste line past the bounds of LIMITS is told; the export's reader says the same. */
export const BOUNDS_MESSAGES = {
  fieldText: `a text field is at most ${LIMITS.fieldTextMax} characters`,
  wasteLines: `a manifest has at most ${LIMITS.wasteLinesMax} waste lines`,
} as const;
