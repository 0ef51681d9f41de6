/**
 * A search the server would refuse is caught where it is typed: a control character (a pasted tab, a stray
 * bell) is never part of a name or an ID, and the server answers 400 to it (shared/query/search.ts). The
 * field says what it holds and offers to remove it; nothing is sent meanwhile.
 */
import { controlCharacterIn, withoutControlCharacters } from '../../../shared/api/index.ts';

const NAMES: Record<string, string> = {
  'U+0009': 'a tab',
  'U+000A': 'a line break',
  'U+000D': 'a line break',
};

/** Why the search cannot be sent as typed, or undefined when it can. */
export function searchProblem(text: string): string | undefined {
  const found = controlCharacterIn(text);
  if (!found) return undefined;
  const what = NAMES[found.codePoint] ?? 'an invisible control character';
  return `The search holds ${what} (${found.codePoint}) at character ${found.position}, which no name or ID contains, so it is not searched for.`;
}

/** The message under a search field that holds a control character, with a way to remove it. */
export function SearchCheck({
  id,
  text,
  onFix,
}: {
  /** The message's id, for the field's aria-describedby. */
  id: string;
  text: string;
  onFix: (fixed: string) => void;
}) {
  const problem = searchProblem(text);
  if (!problem) return null;
  return (
    <div id={id} role="alert" className="field-problem">
      <span>{problem}</span>
      <button type="button" onClick={() => onFix(withoutControlCharacters(text))}>
        Remove it
      </button>
    </div>
  );
}
