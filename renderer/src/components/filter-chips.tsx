/** One active filter: `value` as the request holds it, `text` as the chip reads ("code – description"). */
export type Chip = { member: string; label: string; value: string; text: string };

type Props = {
  chips: readonly Chip[];
  onRemove: (chip: Chip) => void;
  onClearAll: () => void;
};

/** Active filters as removable chips, plus "Clear all". */
export function FilterChips({ chips, onRemove, onClearAll }: Props) {
  if (chips.length === 0) return null;
  return (
    <div className="filter-chips" aria-label="Active filters" role="group">
      {chips.map((chip) => (
        <button
          key={`${chip.member}:${chip.value}`}
          type="button"
          aria-label={`Remove filter ${chip.label}: ${chip.text}`}
          onClick={() => onRemove(chip)}
        >
          {chip.label}: {chip.text} ×
        </button>
      ))}
      <button type="button" onClick={onClearAll}>
        Clear all
      </button>
    </div>
  );
}
