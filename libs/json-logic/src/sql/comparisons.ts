import { JsonLogicSqlError } from './sql-translation.error';
import {
  ALL_KINDS,
  byKind,
  compareNumbers,
  FLOAT,
  hasSupplementary,
  isComposite,
  Kind,
  Prim,
  SUPPLEMENTARY,
  Val,
} from './sql-values';
import { ValueBuilder } from './value-builder';

/** JavaScript's equality, ordering and `in`, as json-logic-js applies them, in SQL. */
export abstract class Comparisons extends ValueBuilder {
  // ---------- comparisons ----------

  /** JavaScript `===`: same type and value; lists and objects only when they are the same field. */
  protected strictEquals(a: Val, b: Val): string {
    return byKind(a, (ka) => byKind(b, (kb) => (ka === kb ? this.sameKindEquals(a, b, ka) : 'FALSE')));
  }

  protected sameKindEquals(a: Val, b: Val, kind: Kind): string {
    switch (kind) {
      case 'null':
        return 'TRUE';
      case 'boolean':
        return `(${a.bool()} = ${b.bool()})`;
      case 'number':
        return `(${a.num()} = ${b.num()})`;
      case 'string':
        return `(${a.text()} = ${b.text()})`;
      default:
        return a.ref !== undefined && a.ref === b.ref ? 'TRUE' : 'FALSE';
    }
  }

  /** JavaScript `==` (Abstract Equality Comparison). */
  protected looseEquals(a: Val, b: Val, path: string): string {
    return byKind(a, (ka) =>
      byKind(b, (kb) => {
        if (ka === kb) return this.sameKindEquals(a, b, ka);
        if (ka === 'null' || kb === 'null') return 'FALSE';
        if (isComposite(ka) && isComposite(kb)) return 'FALSE';
        const pa = this.primitive(a, ka, '==', path);
        const pb = this.primitive(b, kb, '==', path);
        if (pa.kind === pb.kind) return `(${pa.sql} = ${pb.sql})`;
        return compareNumbers(this.toNumber(pa, '==', path), '=', this.toNumber(pb, '==', path));
      }),
    );
  }

  /** JavaScript `a < b` / `a <= b` (Abstract Relational Comparison; NaN compares false). */
  protected compare(a: Val, b: Val, op: '<' | '<=', path: string): string {
    return byKind(a, (ka) =>
      byKind(b, (kb) => {
        const pa = this.primitive(a, ka, op, path);
        const pb = this.primitive(b, kb, op, path);
        if (pa.kind === 'string' && pb.kind === 'string') return this.compareStrings(pa, pb, op);
        return compareNumbers(this.toNumber(pa, op, path), op, this.toNumber(pb, op, path));
      }),
    );
  }

  /** JavaScript string order is by UTF-16 code unit; PostgreSQL's "C" order is by code point. They differ only past U+FFFF. */
  protected compareStrings(a: Prim, b: Prim, op: '<' | '<='): string {
    const fast = `((${a.sql}) COLLATE "C" ${op} (${b.sql}) COLLATE "C")`;
    const sides = [a, b].map((p) => (p.lit ? (hasSupplementary(String(p.lit.value)) ? 'always' : 'never') : 'runtime'));
    if (sides.every((s) => s === 'never')) return fast;
    const slow = `(${this.utf16(a.sql)} ${op} ${this.utf16(b.sql)})`;
    if (sides.includes('always')) return slow;
    const test = [a, b]
      .filter((_, i) => sides[i] === 'runtime')
      .map((p) => `(${p.sql}) ~ ${SUPPLEMENTARY}`)
      .join(' OR ');
    return `(CASE WHEN ${test} THEN ${slow} ELSE ${fast} END)`;
  }

  /** The UTF-16 code units of a text, as int[] (arrays compare element by element, a prefix first). */
  protected utf16(text: string): string {
    const n = this.aliases++;
    const c = `jl_c${n}`;
    const u = `jl_u${n}`;
    const cp = `ascii(${c}.ch)`;
    return `ARRAY(SELECT ${u}.unit FROM unnest(string_to_array(${text}, NULL)) WITH ORDINALITY AS ${c}(ch, i) CROSS JOIN LATERAL unnest(CASE WHEN ${cp} < 65536 THEN ARRAY[${cp}] ELSE ARRAY[55296 + ((${cp} - 65536) >> 10), 56320 + ((${cp} - 65536) & 1023)] END) WITH ORDINALITY AS ${u}(unit, j) ORDER BY ${c}.i, ${u}.j)`;
  }

  /** ToPrimitive: lists and objects become text (only for constants: JavaScript's number formatting is not reproduced). */
  protected primitive(v: Val, kind: Kind, op: string, path: string): Prim {
    switch (kind) {
      case 'null':
        return { kind, sql: 'NULL', lit: { value: null } };
      case 'boolean':
        return { kind, sql: v.bool(), lit: v.lit };
      case 'number':
        return { kind, sql: v.num(), lit: v.lit };
      case 'string':
        return { kind, sql: v.text(), lit: v.lit };
    }
    if (v.lit) {
      const text = String(v.lit.value);
      return { kind: 'string', sql: this.param(text, 'text'), lit: { value: text } };
    }
    throw new JsonLogicSqlError(
      `"${op}" between a list or object field and another value needs JavaScript's conversion of the list to text, which the SQL translation does not reproduce; compare with "===" or "in" instead`,
      path,
    );
  }

  /** ToNumber; null means NaN. Text is converted only when it is a constant of the rule. */
  protected toNumber(p: Prim, op: string, path: string): string | null {
    switch (p.kind) {
      case 'null':
        return `CAST(0 AS ${FLOAT})`;
      case 'number':
        return p.sql;
      case 'boolean':
        if (p.lit) return `CAST(${p.lit.value ? 1 : 0} AS ${FLOAT})`;
        return `(CASE WHEN ${p.sql} THEN CAST(1 AS ${FLOAT}) ELSE CAST(0 AS ${FLOAT}) END)`;
      case 'string': {
        if (!p.lit) {
          throw new JsonLogicSqlError(
            `"${op}" between a text field and a number, boolean or null needs JavaScript's text-to-number conversion of the field, which the SQL translation does not reproduce; compare the field with a text literal, or use "==="`,
            path,
          );
        }
        const n = Number(p.lit.value);
        return Number.isNaN(n) ? null : this.number(n);
      }
    }
  }

  // ---------- in ----------

  /** `in`: `b.indexOf(a) !== -1` when b is a list (strict equality) or a non-empty string (substring); false otherwise. */
  protected contains(a: Val, b: Val, path: string): string {
    return byKind(b, (kb) => {
      if (kb === 'string') {
        const needle = this.asText(a, path);
        return `(${b.text()} <> '' AND strpos(${b.text()}, ${needle}) > 0)`;
      }
      if (kb !== 'array') return 'FALSE';
      if (b.elements)
        return b.elements.length ? `(${b.elements.map((e) => this.strictEquals(a, e)).join(' OR ')})` : 'FALSE';
      if (a.kinds.some(isComposite)) {
        throw new JsonLogicSqlError(
          '"in" of a list or object value in a list field compares references, which the SQL translation does not reproduce',
          path,
        );
      }
      // A string needle: jsonb containment of a one-string array matches exactly the top-level string
      // elements equal to it (strict equality), without a subquery per row.
      if (a.kinds.length === 1 && a.kinds[0] === 'string') return `(${b.json()} @> jsonb_build_array(${a.text()}))`;
      const alias = `jl_e${this.aliases++}`;
      const element = this.jsonVal(`${alias}.v`, ALL_KINDS);
      return `EXISTS (SELECT 1 FROM jsonb_array_elements(${b.json()}) AS ${alias}(v) WHERE ${this.strictEquals(a, element)})`;
    });
  }

  /** ToString of the needle of a substring search. */
  protected asText(v: Val, path: string): string {
    return byKind(v, (k) => {
      switch (k) {
        case 'string':
          return v.text();
        case 'null':
          return `'null'`;
        case 'boolean':
          return v.lit ? `'${String(v.lit.value)}'` : `(CASE WHEN ${v.bool()} THEN 'true' ELSE 'false' END)`;
      }
      if (v.lit) return this.param(String(v.lit.value), 'text');
      throw new JsonLogicSqlError(
        `"in" of a ${k === 'number' ? 'number' : 'list or object'} field in a string needs JavaScript's conversion of it to text, which the SQL translation does not reproduce`,
        path,
      );
    });
  }
}
