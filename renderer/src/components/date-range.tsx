import { useId, useRef, useState } from 'react';
import { isoDate } from '../../../shared/api/index.ts';
import './manifest-parts.css';

type Props = {
  label: string;
  start: string | undefined;
  end: string | undefined;
  onChange: (start: string | undefined, end: string | undefined) => void;
};

type Bound = 'start' | 'end';

/** What one field holds as typed, and whether the user has left it (an unfinished date is only flagged then). */
type Typed = { text: string; left: boolean };

type Draft = { start: Typed; end: Typed; edited: Bound };

const typed = (value: string | undefined): Typed => ({ text: value ?? '', left: true });

/**
 * The date a field's text means, in the app's one date format (YYYY-MM-DD, as the grid, the chips, the
 * API and the workbooks write dates): '' for an empty field, undefined for a date not finished or not real.
 * Eight digits or another separator between the parts are read as the same order, since that is what a
 * user typing the format quickly writes.
 */
export function dateOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const parts =
    /^(\d{4})(?:[-/.]?)(\d{2})(?:[-/.]?)(\d{2})$/.exec(trimmed) ??
    /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(trimmed);
  if (!parts) return undefined;
  const [, year = '', month = '', day = ''] = parts;
  const date = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return isoDate.safeParse(date).success ? date : undefined;
}

/** A finished date that is not a real one (2024-02-30): said at once, not only when the user leaves. */
const looksFinished = (text: string) => /^\d{4}[-/.]?\d{1,2}[-/.]?\d{2}$/.test(text.trim());

/** The message for each field that blocks the pair, if any; an inverted range is blamed on the field last edited. */
function problems(draft: Draft): Partial<Record<Bound, string>> {
  const found: Partial<Record<Bound, string>> = {};
  for (const bound of ['start', 'end'] as const) {
    const { text, left } = draft[bound];
    if (dateOf(text) === undefined && (left || looksFinished(text)))
      found[bound] = `The ${bound} date is not a real date in the form YYYY-MM-DD.`;
  }
  if (found.start || found.end) return found;
  const start = dateOf(draft.start.text);
  const end = dateOf(draft.end.text);
  if (start && end && start > end) {
    found[draft.edited] =
      draft.edited === 'start'
        ? 'The start date is after the end date.'
        : 'The end date is before the start date.';
  }
  return found;
}

/**
 * An inclusive date range (spec 4.6 shipped/received dates), typed as YYYY-MM-DD or picked from a calendar.
 * A browser's date input shows the date in the system's locale order (mm/dd/yyyy here) while the rest of the
 * app writes YYYY-MM-DD, so the fields are text in the app's format, each with a button that opens the
 * browser's own calendar. What the user types stays in local state; only a valid pair reaches onChange,
 * because the API refuses a start after the end.
 */
export function DateRange({ label, start, end, onChange }: Props) {
  const id = useId();
  const startField = useRef<HTMLInputElement>(null);
  const endField = useRef<HTMLInputElement>(null);
  const startPicker = useRef<HTMLInputElement>(null);
  const endPicker = useRef<HTMLInputElement>(null);
  const fields = { start: startField, end: endField };
  const pickers = { start: startPicker, end: endPicker };
  const [draft, setDraft] = useState<Draft>({ start: typed(start), end: typed(end), edited: 'start' });
  const [synced, setSynced] = useState({ start, end });

  // A change from outside (a removed chip, "Clear all") replaces whatever was typed.
  if (synced.start !== start || synced.end !== end) {
    setSynced({ start, end });
    setDraft({ start: typed(start), end: typed(end), edited: 'start' });
  }

  const update = (bound: Bound, entry: Typed) => {
    const next: Draft = { ...draft, [bound]: entry, edited: bound };
    setDraft(next);
    const found = problems(next);
    if (found.start || found.end) return;
    const nextStart = dateOf(next.start.text);
    const nextEnd = dateOf(next.end.text);
    // An unfinished date (still being typed) waits; a finished pair is applied.
    if (nextStart === undefined || nextEnd === undefined) return;
    const shownStart = nextStart || undefined;
    const shownEnd = nextEnd || undefined;
    if (shownStart !== start || shownEnd !== end) onChange(shownStart, shownEnd);
  };

  const clear = () => {
    setDraft({ start: typed(undefined), end: typed(undefined), edited: 'start' });
    onChange(undefined, undefined);
    // The Clear button disappears with the values, so keep focus in the range rather than losing it.
    fields.start.current?.focus();
  };

  const found = problems(draft);
  const anySet = draft.start.text !== '' || draft.end.text !== '';

  const field = (bound: Bound, word: string) => {
    const inputId = `${id}-${bound}`;
    const message = found[bound];
    const entry = draft[bound];
    const other = dateOf(draft[bound === 'start' ? 'end' : 'start'].text);
    // The calendar greys out days that would invert the range.
    const limit = other || undefined;
    return (
      <div className="date-range-bound">
        <label htmlFor={inputId}>{word}</label>
        <input
          ref={fields[bound]}
          id={inputId}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          placeholder="YYYY-MM-DD"
          maxLength={10}
          aria-label={`${label} ${word.toLowerCase()}`}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${inputId}-error` : `${id}-format`}
          value={entry.text}
          onChange={(event) => update(bound, { text: event.currentTarget.value, left: false })}
          onBlur={(event) => {
            // Leaving the field finishes it: a date typed another accepted way is written out as YYYY-MM-DD.
            const text = event.currentTarget.value;
            const date = dateOf(text);
            update(bound, { text: date ?? text, left: true });
          }}
        />
        <button
          type="button"
          className="date-range-pick"
          aria-label={`Open a calendar for the ${bound === 'start' ? 'first' : 'last'} ${label.toLowerCase()}`}
          title="Pick from a calendar"
          onClick={() => {
            const picker = pickers[bound].current;
            if (!picker) return;
            picker.value = dateOf(entry.text) || '';
            picker.showPicker?.();
          }}
        >
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <rect x="1.5" y="2.5" width="13" height="12" rx="1.5" fill="none" stroke="currentColor" />
            <path d="M1.5 6h13M5 1v3M11 1v3" stroke="currentColor" />
          </svg>
        </button>
        {/* The browser's calendar, opened by the button; what is picked fills the field. */}
        <input
          ref={pickers[bound]}
          className="date-range-calendar"
          type="date"
          tabIndex={-1}
          aria-hidden="true"
          min={bound === 'end' ? limit : undefined}
          max={bound === 'start' ? limit : undefined}
          onChange={(event) => {
            const picked = event.currentTarget.value;
            if (picked) update(bound, { text: picked, left: true });
          }}
        />
      </div>
    );
  };

  return (
    <fieldset className="date-range">
      <legend>{label}</legend>
      <p id={`${id}-format`} className="visually-hidden">
        A date in the form YYYY-MM-DD.
      </p>
      {field('start', 'From')}
      {field('end', 'To')}
      {(found.start || found.end) && (
        <div role="alert" className="date-range-error">
          {(['start', 'end'] as const).map(
            (bound) =>
              found[bound] && (
                <p key={bound} id={`${id}-${bound}-error`}>
                  {found[bound]}
                </p>
              ),
          )}
        </div>
      )}
      {anySet && (
        <button type="button" className="date-range-clear" aria-label={`Clear ${label}`} onClick={clear}>
          Clear
        </button>
      )}
    </fieldset>
  );
}
