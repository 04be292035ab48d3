import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { AVAILABILITIES, CONDITIONS, SYNC_STATUSES } from '../catalog-product.entity';

/** A catalog on the wire. */
export class CatalogResponse {
  @ApiProperty({ format: 'uuid' })
  catalog_id!: string;

  @ApiProperty()
  catalog_name!: string;

  @ApiProperty({ example: 'WHATSAPP' })
  provider_type!: string;

  @ApiProperty({ example: 'commerce' })
  vertical!: string;

  @ApiProperty({ nullable: true, type: String, description: 'The linked business account' })
  waba_id!: string | null;

  @ApiProperty({ nullable: true, type: String, description: "The catalog's id at the provider, once published" })
  provider_catalog_id!: string | null;

  @ApiProperty({ nullable: true, type: String, format: 'date-time' })
  published_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiProperty({ format: 'date-time' })
  update_date!: string;
}

/** A product on the wire. */
export class ProductResponse {
  @ApiProperty()
  retailer_id!: string;

  @ApiProperty()
  name!: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  description!: string | null;

  @ApiProperty()
  price!: number;

  @ApiProperty()
  currency!: string;

  @ApiProperty({ enum: AVAILABILITIES })
  availability!: string;

  @ApiProperty({ nullable: true, type: String })
  brand!: string | null;

  @ApiProperty({ enum: CONDITIONS })
  condition!: string;

  @ApiProperty({ nullable: true, type: String })
  image_url!: string | null;

  @ApiProperty({ nullable: true, type: String })
  url!: string | null;

  @ApiProperty({ enum: SYNC_STATUSES })
  sync_status!: string;

  @ApiProperty({ nullable: true, type: String, description: "The provider's refusal (FAILED)" })
  sync_error!: string | null;

  @ApiProperty({ nullable: true, type: String, format: 'date-time' })
  synced_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiProperty({ format: 'date-time' })
  update_date!: string;
}

export const CATALOG_EXAMPLE: CatalogResponse = {
  catalog_id: '5f0c3c1e-8a4b-4c59-9a53-0d6f7f1b2c3d',
  catalog_name: 'Tienda Bogotá',
  provider_type: 'WHATSAPP',
  vertical: 'commerce',
  waba_id: '102290129340398',
  provider_catalog_id: null,
  published_at: null,
  creation_date: '2026-11-25T10:00:00.000Z',
  update_date: '2026-11-25T10:00:00.000Z',
};

export const PRODUCT_EXAMPLE: ProductResponse = {
  retailer_id: 'SKU-1001',
  name: 'Camiseta azul',
  description: 'Algodón, talla M',
  price: 59900.5,
  currency: 'COP',
  availability: 'in stock',
  brand: 'Acme',
  condition: 'new',
  image_url: 'https://shop.example.com/img/sku-1001.jpg',
  url: null,
  sync_status: 'PENDING',
  sync_error: null,
  synced_at: null,
  creation_date: '2026-11-25T10:00:00.000Z',
  update_date: '2026-11-25T10:00:00.000Z',
};
