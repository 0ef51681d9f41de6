import { useCallback } from 'react';
import type { GeneratorFilterFields, GeneratorLookupField } from '../../../shared/api/index.ts';
import { generatorLookup } from '../data/tracker-data.ts';
import { useGeneratorFilters } from '../state/generator-filters.ts';
import { FilterChips, type Chip } from './filter-chips.tsx';
import { LookupMultiSelect } from './lookup-multi-select.tsx';

type Member = keyof GeneratorFilterFields;

const MEMBERS: readonly { member: Member; field: GeneratorLookupField; label: string }[] = [
  { member: 'shippedYears', field: 'shipped_year', label: 'Shipped year' },
  { member: 'cities', field: 'generator_city', label: 'City' },
  { member: 'naics', field: 'naics', label: 'NAICS' },
  { member: 'ids', field: 'epa_handler_id', label: 'EPA ID' },
  { member: 'states', field: 'generator_state', label: 'State' },
  { member: 'wasteCodes', field: 'epa_waste_code', label: 'Waste code' },
  { member: 'names', field: 'generator_name', label: 'Generator name' },
  { member: 'statuses', field: 'status', label: 'Status' },
  { member: 'handlingCodes', field: 'mmc', label: 'Handling code' },
];

function MemberSelect({ member, field, label }: (typeof MEMBERS)[number]) {
  const selected = useGeneratorFilters((state) => state.filterFields[member]) ?? [];
  const setMember = useGeneratorFilters((state) => state.setMember);
  const fetchPage = useCallback(
    (search: string, page: number) => generatorLookup(field, search, page),
    [field],
  );
  return (
    <LookupMultiSelect
      label={label}
      selected={selected}
      onChange={(values) => setMember(member, values)}
      fetchPage={fetchPage}
    />
  );
}

/** The generators filter panel: search box, one lookup-fed multi-select per filter member, chips. */
export function GeneratorFilterPanel() {
  const { filterFields, searchKey, setSearchKey, setMember, clearAll } = useGeneratorFilters();
  const chips: Chip[] = MEMBERS.flatMap(({ member, label }) =>
    (filterFields[member] ?? []).map((value) => ({ member, label, value })),
  );
  const remove = (chip: Chip) => {
    const member = chip.member as Member;
    setMember(
      member,
      (filterFields[member] ?? []).filter((value) => value !== chip.value),
    );
  };
  return (
    <aside className="filter-panel" aria-label="Generator filters">
      <label>
        Search generators
        <input type="search" value={searchKey} onChange={(event) => setSearchKey(event.target.value)} />
      </label>
      <FilterChips chips={chips} onRemove={remove} onClearAll={clearAll} />
      {MEMBERS.map((entry) => (
        <MemberSelect key={entry.member} {...entry} />
      ))}
    </aside>
  );
}
