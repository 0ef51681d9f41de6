import { beforeEach, describe, expect, it } from 'vitest';
import { GeneratorFilterFields } from '../../shared/api/index.ts';
import { movedInto, orderedFields } from '../../renderer/src/state/column-layout.ts';
import { setStateOwner } from '../../renderer/src/state/user-storage.ts';
import { createWorkspaceStore } from '../../renderer/src/state/workspace-store.ts';

const CATALOGUE = ['id', 'name', 'city', 'state', 'total'];

describe('orderedFields', () => {
  it.each([
    ['no saved order: the catalogue', undefined, CATALOGUE],
    [
      'a full saved order',
      ['total', 'id', 'name', 'city', 'state'],
      ['total', 'id', 'name', 'city', 'state'],
    ],
    ['fields new to the catalogue follow', ['state', 'id'], ['state', 'id', 'name', 'city', 'total']],
    [
      'fields the catalogue lost are dropped',
      ['gone', 'city', 'id'],
      ['city', 'id', 'name', 'state', 'total'],
    ],
    ['a repeated field counts once', ['city', 'city', 'id'], ['city', 'id', 'name', 'state', 'total']],
  ])('%s', (_case, saved, order) => {
    expect(orderedFields(CATALOGUE, saved)).toEqual(order);
  });
});

describe('movedInto', () => {
  it('puts the shown columns in their new order and leaves hidden ones where they were', () => {
    // name and state hidden; the user drags total to the front of id, city, total.
    expect(movedInto(CATALOGUE, ['total', 'id', 'city'])).toEqual(['total', 'name', 'id', 'state', 'city']);
  });

  it('is the same order when nothing moved', () => {
    expect(movedInto(CATALOGUE, ['id', 'city', 'total'])).toEqual(CATALOGUE);
  });
});

describe('saved column layout', () => {
  let name = 0;
  beforeEach(() => {
    localStorage.clear();
    // The layout is a signed-in user's, as in the app.
    setStateOwner({ baseUrl: 'http://127.0.0.1:4010', username: 'inspector' });
    name += 1;
  });
  const store = () => createWorkspaceStore(`layout-${name}`, GeneratorFilterFields);

  it('keeps order and widths across a restart; a width is whole pixels within bounds', () => {
    const first = store();
    first.getState().setColumnOrder(['total_waste', 'epa_handler_id']);
    first.getState().setColumnWidths({ generator_name: 312.6 });
    first.getState().setColumnWidths({ total_waste: 5, location_city: 9000 });
    const { columnOrder, columnWidths } = store().getState();
    expect({ columnOrder, columnWidths }).toEqual({
      columnOrder: ['total_waste', 'epa_handler_id'],
      columnWidths: { generator_name: 313, total_waste: 20, location_city: 4000 },
    });
  });

  it('"Reset columns" forgets which columns, their order and their widths', () => {
    const first = store();
    first.getState().setColumns(['epa_handler_id']);
    first.getState().setColumnOrder(['total_waste', 'epa_handler_id']);
    first.getState().setColumnWidths({ epa_handler_id: 200 });
    first.getState().resetColumns();
    const { columns, columnOrder, columnWidths } = store().getState();
    expect({ columns, columnOrder, columnWidths }).toEqual({
      columns: undefined,
      columnOrder: undefined,
      columnWidths: {},
    });
  });

  it.each([
    ['an order that is not a list', { columnOrder: 'total_waste' }],
    ['an empty order', { columnOrder: [] }],
    ['a width that is not a number', { columnWidths: { total_waste: '200' } }],
    ['a width below any column', { columnWidths: { total_waste: 3 } }],
    ['a fractional width', { columnWidths: { total_waste: 120.5 } }],
    ['widths that are not a map', { columnWidths: [200] }],
  ])('drops %s from what was saved, keeping the search', (_case, layout) => {
    localStorage.setItem(
      `waste-tracker.workspace.layout-${name}`,
      JSON.stringify({ state: { searchKey: 'acid', ...layout }, version: 1 }),
    );
    const { columnOrder, columnWidths, searchKey } = store().getState();
    expect({ columnOrder, columnWidths, searchKey }).toEqual({
      columnOrder: undefined,
      columnWidths: {},
      searchKey: 'acid',
    });
  });
});
