import { ValidationFailedException } from '@kyc/platform';
import { Param, PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A catalog id must be a valid UUID: anything else is a 400 naming `catalog_id` (never a lookup). */
class CatalogIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value))
      throw new ValidationFailedException([{ field: 'catalog_id', message: 'catalog_id must be a UUID' }]);
    return value.toLowerCase();
  }
}

/** The `{catalog_id}` path parameter, checked to be a UUID. */
export const CatalogId = (): ParameterDecorator => Param('catalog_id', new CatalogIdPipe());

/** The document's `{catalog_id}`: a UUID, as CatalogId() checks (on each route, or on a controller whose routes all have it). */
export const ApiCatalogIdParam = () =>
  ApiParam({ name: 'catalog_id', schema: { type: 'string', format: 'uuid' }, description: 'The catalog (a UUID)' });
