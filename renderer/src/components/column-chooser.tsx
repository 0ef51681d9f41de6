import { useEffect, useId, useRef, useState } from 'react';

export type ColumnChoice = { field: string; headerName: string };

type Props = {
  columns: readonly ColumnChoice[];
  shown: readonly string[];
  onChange: (shown: string[]) => void;
  onReset: () => void;
};

/** Which columns the grid shows (and so which fields the server sends); at least one stays shown. */
export function ColumnChooser({ columns, shown, onChange, onReset }: Props) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const toggle = (field: string) => {
    const next = shown.includes(field) ? shown.filter((f) => f !== field) : [...shown, field];
    // Keep the definition's order so a column comes back where it was.
    onChange(columns.map((c) => c.field).filter((f) => next.includes(f)));
  };

  return (
    <div
      className="column-chooser"
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setOpen(false);
      }}
    >
      <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        Columns
      </button>
      {open && (
        <fieldset id={id} className="column-chooser-menu">
          <legend>Columns shown</legend>
          {columns.map((column) => (
            <label key={column.field}>
              <input
                type="checkbox"
                checked={shown.includes(column.field)}
                disabled={shown.length === 1 && shown.includes(column.field)}
                onChange={() => toggle(column.field)}
              />
              {column.headerName}
            </label>
          ))}
          <button type="button" onClick={onReset}>
            Reset columns
          </button>
        </fieldset>
      )}
    </div>
  );
}
