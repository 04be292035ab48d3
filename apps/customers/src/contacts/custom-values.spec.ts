import { ContactPropertyEntity } from './contact-property.entity';
import { applyCustomValues } from './custom-values';

const prop = (id: string, type: ContactPropertyEntity['type'], enumValues: string[] | null = null) =>
  Object.assign(new ContactPropertyEntity(), { id, name: id, type, enumValues, hidden: false });
const props = new Map(
  [
    prop('s', 'string'),
    prop('i', 'int'),
    prop('b', 'boolean'),
    prop('d', 'date'),
    prop('e', 'email'),
    prop('n', 'enum', ['a', 'b']),
  ].map((p) => [p.id, p]),
);

describe('custom property values', () => {
  it('types form text by the property type', () => {
    expect(
      applyCustomValues({}, { s: ' x ', i: '-12', b: 'false', d: '2024-02-29', e: 'A@B.co', n: 'b' }, props),
    ).toEqual({
      values: { s: 'x', i: -12, b: false, d: '2024-02-29', e: 'a@b.co', n: 'b' },
      problems: [],
    });
  });

  it('reports every wrong value and unknown property by its field', () => {
    const { problems } = applyCustomValues({}, { i: '1.5', b: 'yes', d: '2023-02-29', e: 'x', n: 'c', z: '1' }, props);
    expect(problems.map((p) => p.field)).toEqual(
      ['i', 'b', 'd', 'e', 'n', 'z'].map((id) => `custom_property_values.${id}`),
    );
  });

  it('removes a value given as null or empty text, keeping the others', () => {
    expect(applyCustomValues({ s: 'x', i: 1 }, { s: null, i: '' }, props).values).toEqual({});
    expect(applyCustomValues({ s: 'x' }, { i: 2 }, props).values).toEqual({ s: 'x', i: 2 });
  });
});
