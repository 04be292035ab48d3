import { Transform } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateBy } from 'class-validator';

import { ValidationFailedException } from '../errors/app.exception';
import { BodyOptional } from './body-optional';
import { createValidationPipe, isFormBody } from './validation.pipe';

const overflows = () =>
  ValidateBy({
    name: 'overflows',
    validator: {
      validate: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    },
  });

class Dto {
  @IsString()
  name!: string;

  @overflows()
  file!: string;
}

describe('createValidationPipe', () => {
  const pipe = createValidationPipe();
  const body = { type: 'body' as const, metatype: Dto };

  it('answers a validator running out of stack on a value as the client input (400), not a 500', async () => {
    const refused = pipe.transform({ name: 'a', file: 'x' }, body);
    await expect(refused).rejects.toBeInstanceOf(ValidationFailedException);
    await expect(refused).rejects.toMatchObject({ message: 'A value of the request is too large to check' });
  });

  it('keeps declared fields and names the invalid ones', async () => {
    class Named {
      @IsString()
      name!: string;
    }
    await expect(pipe.transform({ name: 'Ana', extra: 1 }, { type: 'body', metatype: Named })).resolves.toEqual({
      name: 'Ana',
    });
    await expect(pipe.transform({ name: 5 }, { type: 'body', metatype: Named })).rejects.toMatchObject({
      fields: [expect.objectContaining({ field: 'name' })],
    });
  });

  it('takes a missing body as {} for a @BodyOptional() DTO, and refuses it naming the body otherwise', async () => {
    @BodyOptional()
    class AllOptional {
      @IsOptional()
      @IsString()
      name?: string;
    }
    const optional = { type: 'body' as const, metatype: AllOptional };
    await expect(pipe.transform(undefined, optional)).resolves.toEqual({});
    await expect(pipe.transform({}, optional)).resolves.toEqual({});
    // a JSON `null` is a body, and not an object: refused, not taken as a missing body
    await expect(pipe.transform(null, optional)).rejects.toMatchObject({
      fields: [expect.objectContaining({ field: 'body' })],
    });
    class Required {
      @IsOptional()
      @IsString()
      name?: string;
    }
    const required = { type: 'body' as const, metatype: Required };
    await expect(pipe.transform(undefined, required)).rejects.toMatchObject({
      fields: [expect.objectContaining({ field: 'body' })],
    });
  });

  it('refuses a list or a bare value as a body naming the body, even when every field is optional', async () => {
    class AllOptional {
      @IsOptional()
      @IsString()
      name?: string;
    }
    const meta = { type: 'body' as const, metatype: AllOptional };
    for (const value of [[null, null], [{ name: 'a' }], 'text', 5, true])
      await expect(pipe.transform(value, meta)).rejects.toMatchObject({
        fields: [expect.objectContaining({ field: 'body' })],
      });
    await expect(pipe.transform({ name: 'a' }, meta)).resolves.toEqual({ name: 'a' });
  });

  it('lets a transform tell a form body (no prototype) from a JSON one', async () => {
    class Listed {
      @Transform(({ value, obj }: { value: unknown; obj: unknown }) =>
        Array.isArray(value) || !isFormBody(obj) ? value : [value],
      )
      @IsArray()
      items!: string[];
    }
    const meta = { type: 'body' as const, metatype: Listed };
    const form = Object.assign(Object.create(null) as object, { items: 'a', other: 1 });
    await expect(pipe.transform(form, meta)).resolves.toMatchObject({ items: ['a'] });
    await expect(pipe.transform({ items: 'a' }, meta)).rejects.toMatchObject({
      fields: [expect.objectContaining({ field: 'items' })],
    });
  });
});
