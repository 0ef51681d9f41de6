import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DateRange } from '../../renderer/src/components/date-range.tsx';

type OnChange = (start: string | undefined, end: string | undefined) => void;

/** Holds the range the way the workspace store does, so a valid pair comes back as props. */
function Filters({ onChange }: { onChange: OnChange }) {
  const [range, setRange] = useState<{ start?: string; end?: string }>({});
  return (
    <DateRange
      label="Shipped date"
      start={range.start}
      end={range.end}
      onChange={(start, end) => {
        onChange(start, end);
        setRange({ start, end });
      }}
    />
  );
}

const from = () => screen.getByLabelText<HTMLInputElement>('Shipped date from');
const to = () => screen.getByLabelText<HTMLInputElement>('Shipped date to');
const type = (input: HTMLInputElement, value: string) => fireEvent.change(input, { target: { value } });

afterEach(cleanup);

describe('DateRange', () => {
  it('names the group, both fields, their calendars and the Clear button after its label', () => {
    render(<DateRange label="Shipped date" start="2024-01-01" end={undefined} onChange={() => {}} />);
    expect(screen.getByRole('group', { name: 'Shipped date' })).toBeTruthy();
    // Text in the app's one date format, not the browser's locale order (mm/dd/yyyy).
    expect(from().type).toBe('text');
    expect(from().placeholder).toBe('YYYY-MM-DD');
    expect(from().value).toBe('2024-01-01');
    expect(to().placeholder).toBe('YYYY-MM-DD');
    expect(screen.getByRole('button', { name: 'Open a calendar for the first shipped date' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open a calendar for the last shipped date' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Clear Shipped date' })).toBeTruthy();
  });

  it('offers Clear only while a bound is set', () => {
    render(<DateRange label="Shipped date" start={undefined} end={undefined} onChange={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Clear Shipped date' })).toBeNull();
  });

  it('reports each valid step of typing a range, ending with both dates', () => {
    const onChange = vi.fn<OnChange>();
    render(<Filters onChange={onChange} />);
    type(from(), '2024-01-01');
    expect(onChange).toHaveBeenLastCalledWith('2024-01-01', undefined);
    type(to(), '2024-01-31');
    expect(onChange).toHaveBeenLastCalledWith('2024-01-01', '2024-01-31');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps a start after the end on screen with an alert, without reporting it, until it is fixed', () => {
    const onChange = vi.fn<OnChange>();
    render(<Filters onChange={onChange} />);
    type(to(), '2024-01-31');
    onChange.mockClear();

    type(from(), '2024-02-15');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('The start date is after the end date.');
    expect(from().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(from().getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'The start date is after the end date.',
    );
    expect(to().getAttribute('aria-invalid')).toBeNull();
    expect(from().value).toBe('2024-02-15');
    expect(onChange).not.toHaveBeenCalled();

    type(from(), '2024-01-15');
    expect(onChange).toHaveBeenCalledExactlyOnceWith('2024-01-15', '2024-01-31');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(from().getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById(from().getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'A date in the form YYYY-MM-DD.',
    );
  });

  it('blames an end before the start on the end input', () => {
    const onChange = vi.fn<OnChange>();
    render(<DateRange label="Shipped date" start="2024-03-01" end={undefined} onChange={onChange} />);
    type(to(), '2024-02-01');
    expect(screen.getByRole('alert').textContent).toBe('The end date is before the start date.');
    expect(to().getAttribute('aria-invalid')).toBe('true');
    expect(from().getAttribute('aria-invalid')).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('waits while a date is being typed, and flags it unfinished only when the user leaves it', () => {
    const onChange = vi.fn<OnChange>();
    render(<DateRange label="Shipped date" start="2024-03-01" end="2024-03-31" onChange={onChange} />);
    type(to(), '2024-04');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.blur(to());
    expect(screen.getByRole('alert').textContent).toBe(
      'The end date is not a real date in the form YYYY-MM-DD.',
    );
    expect(to().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('button', { name: 'Clear Shipped date' })).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('says at once that a finished date is not a real one', () => {
    const onChange = vi.fn<OnChange>();
    render(<Filters onChange={onChange} />);
    type(from(), '2024-02-30');
    expect(screen.getByRole('alert').textContent).toBe(
      'The start date is not a real date in the form YYYY-MM-DD.',
    );
    expect(onChange).not.toHaveBeenCalled();
  });

  it('reads a date typed as eight digits or with slashes, and writes it out as YYYY-MM-DD', () => {
    const onChange = vi.fn<OnChange>();
    render(<Filters onChange={onChange} />);
    type(from(), '20240115');
    expect(onChange).toHaveBeenLastCalledWith('2024-01-15', undefined);
    fireEvent.blur(from());
    expect(from().value).toBe('2024-01-15');
    type(to(), '2024/2/5');
    expect(onChange).toHaveBeenLastCalledWith('2024-01-15', '2024-02-05');
    fireEvent.blur(to());
    expect(to().value).toBe('2024-02-05');
  });

  it('fills a field with the date picked from its calendar, and limits the calendar to the range', () => {
    const onChange = vi.fn<OnChange>();
    render(<Filters onChange={onChange} />);
    type(from(), '2024-01-10');
    const calendar = to().parentElement?.querySelector<HTMLInputElement>('input[type="date"]');
    if (!calendar) throw new Error('no calendar for the end date');
    expect(calendar.min).toBe('2024-01-10');
    fireEvent.change(calendar, { target: { value: '2024-01-20' } });
    expect(to().value).toBe('2024-01-20');
    expect(onChange).toHaveBeenLastCalledWith('2024-01-10', '2024-01-20');
  });

  it('follows props changed from outside, dropping an invalid draft', () => {
    const onChange = vi.fn<OnChange>();
    const { rerender } = render(
      <DateRange label="Shipped date" start="2024-01-01" end="2024-01-31" onChange={onChange} />,
    );
    type(from(), '2024-05-01');
    expect(screen.getByRole('alert')).toBeTruthy();

    rerender(<DateRange label="Shipped date" start="2024-01-01" end="2024-01-31" onChange={onChange} />);
    expect(from().value).toBe('2024-05-01');

    rerender(<DateRange label="Shipped date" start={undefined} end="2024-01-31" onChange={onChange} />);
    expect(from().value).toBe('');
    expect(to().value).toBe('2024-01-31');
    expect(screen.queryByRole('alert')).toBeNull();

    rerender(<DateRange label="Shipped date" start="2023-12-01" end="2023-12-31" onChange={onChange} />);
    expect(from().value).toBe('2023-12-01');
    expect(to().value).toBe('2023-12-31');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('clears both bounds, reports (undefined, undefined) and keeps focus in the range', () => {
    const onChange = vi.fn<OnChange>();
    render(<Filters onChange={onChange} />);
    type(from(), '2024-01-01');
    type(to(), '2024-01-31');
    fireEvent.click(screen.getByRole('button', { name: 'Clear Shipped date' }));
    expect(onChange).toHaveBeenLastCalledWith(undefined, undefined);
    expect(from().value).toBe('');
    expect(to().value).toBe('');
    expect(document.activeElement).toBe(from());
    expect(screen.queryByRole('button', { name: 'Clear Shipped date' })).toBeNull();
  });
});
