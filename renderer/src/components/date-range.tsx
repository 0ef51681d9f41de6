import { useEffect, useId, useRef, useState } from 'react';
import { isoDate } from '../../../shared/api/index.ts';
import './manifest-parts.css';

type Props = {
  label: string;
  start: string | undefined;
  end: string | undefined;
  onChange: (start: string | undefined, end: string | undefined) => void;
};

type Bound = 'start' | 'end';

/** What one input holds: its YYYY-MM-DD value ('' when empty) and whether the browser reports a partial date. */
type Typed = { value: string; partial: boolean };

type Draft = { start: Typed; end: Typed; edited: Bound };

function typed(value: string | undefined): Typed {
  return { value: value ?? '', partial: false };
}

function isRealDate(entry: Typed): boolean {
  return !entry.partial && (entry.value === '' || isoDate.safeParse(entry.value).success);
}

/**
 * A half-typed date reads as '' in the DOM, so React sees nothing to overwrite and leaves the fragment on
 * screen. Writing only when needed keeps the browser's per-field typing state while the user is in the input.
 */
function overwrite(input: HTMLInputElement | null, value: string | undefined) {
  if (input && (input.value !== (value ?? '') || input.validity.badInput)) input.value = value ?? '';
}

/** The message for each input that blocks the pair, if any; an inverted range is blamed on the input last edited. */
function problems(draft: Draft): Partial<Record<Bound, string>> {
  const found: Partial<Record<Bound, string>> = {};
  for (const bound of ['start', 'end'] as const) {
    if (!isRealDate(draft[bound])) found[bound] = `The ${bound} date is not a complete, real date.`;
  }
  if (found.start || found.end) return found;
  const { start, end } = draft;
  if (start.value !== '' && end.value !== '' && start.value > end.value) {
    found[draft.edited] =
      draft.edited === 'start'
        ? 'The start date is after the end date.'
        : 'The end date is before the start date.';
  }
  return found;
}

/**
 * An inclusive date range (spec 4.6 shipped/received dates). What the user types stays in local state,
 * and only a valid pair reaches onChange, because the API refuses a start after the end.
 */
export function DateRange({ label, start, end, onChange }: Props) {
  const id = useId();
  const startInput = useRef<HTMLInputElement>(null);
  const endInput = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState<Draft>({ start: typed(start), end: typed(end), edited: 'start' });
  const [synced, setSynced] = useState({ start, end });

  // A change from outside (a removed chip, "Clear all") replaces whatever was typed.
  if (synced.start !== start || synced.end !== end) {
    setSynced({ start, end });
    setDraft({ start: typed(start), end: typed(end), edited: 'start' });
  }

  useEffect(() => {
    overwrite(startInput.current, start);
    overwrite(endInput.current, end);
  }, [start, end]);

  const update = (bound: Bound, input: HTMLInputElement) => {
    const next: Draft = {
      ...draft,
      [bound]: { value: input.value, partial: input.validity.badInput },
      edited: bound,
    };
    setDraft(next);
    const found = problems(next);
    if (found.start || found.end) return;
    const nextStart = next.start.value || undefined;
    const nextEnd = next.end.value || undefined;
    if (nextStart !== start || nextEnd !== end) onChange(nextStart, nextEnd);
  };

  const clear = () => {
    overwrite(startInput.current, undefined);
    overwrite(endInput.current, undefined);
    setDraft({ start: typed(undefined), end: typed(undefined), edited: 'start' });
    onChange(undefined, undefined);
    // The Clear button disappears with the values, so keep focus in the range rather than losing it.
    startInput.current?.focus();
  };

  const found = problems(draft);
  const anySet = [draft.start, draft.end].some((entry) => entry.value !== '' || entry.partial);

  const field = (bound: Bound, word: string) => {
    const inputId = `${id}-${bound}`;
    const message = found[bound];
    const entry = draft[bound];
    const other = draft[bound === 'start' ? 'end' : 'start'];
    // The date picker greys out days that would invert the range.
    const limit = isRealDate(other) && other.value !== '' ? other.value : undefined;
    return (
      <div className="date-range-bound">
        <label htmlFor={inputId}>{word}</label>
        <input
          ref={bound === 'start' ? startInput : endInput}
          id={inputId}
          type="date"
          aria-label={`${label} ${word.toLowerCase()}`}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${inputId}-error` : undefined}
          value={entry.value}
          min={bound === 'end' ? limit : undefined}
          max={bound === 'start' ? limit : undefined}
          onChange={(event) => update(bound, event.currentTarget)}
          // Browsers may not fire change while a date is only partly typed; blur is the last chance to say so.
          onBlur={(event) => {
            if (event.currentTarget.validity.badInput !== entry.partial) update(bound, event.currentTarget);
          }}
        />
      </div>
    );
  };

  return (
    <fieldset className="date-range">
      <legend>{label}</legend>
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
