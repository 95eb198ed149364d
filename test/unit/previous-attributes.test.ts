import t from 'tap';
import { previousAttributes } from '../../workers/runtime/events/previous-attributes.js';

const contact = (fields: Record<string, unknown>) => ({ object: 'contact', id: 'con_1', first_name: 'Ada', updated_at: '2026-03-01T10:00:00.000Z', custom_fields: {}, ...fields });

t.test('only the changed fields, with their old values; the record updated_at is left out', async (t) => {
  t.same(previousAttributes(contact({}), contact({ first_name: 'Ada B.', updated_at: '2026-03-01T11:00:00.000Z' })), { first_name: 'Ada' });
  t.equal(previousAttributes(contact({}), contact({ updated_at: '2026-03-01T11:00:00.000Z' })), null, 'nothing but updated_at: no change');
});

t.test('custom_fields: only the keys that changed, whatever they are called', async (t) => {
  t.same(previousAttributes(contact({ custom_fields: { tier: 'gold', score: 1 } }), contact({ custom_fields: { tier: 'gold', score: 2 } })), { custom_fields: { score: 1 } });
  t.same(previousAttributes(contact({ custom_fields: { tier: null } }), contact({ custom_fields: { tier: 'gold' } })), { custom_fields: { tier: null } });
  t.same(
    previousAttributes(contact({ custom_fields: { updated_at: 'a' } }), contact({ custom_fields: { updated_at: 'b' } })),
    { custom_fields: { updated_at: 'a' } },
    'a custom field named updated_at is a field like any other',
  );
});
