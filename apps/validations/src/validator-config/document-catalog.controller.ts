import { DOCUMENT_COUNTRIES, DOCUMENT_TYPES } from '@kyc/contracts';
import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller } from '@kyc/platform';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

import { UpperTrim } from '../shared/validators';
import { DOCUMENT_CATALOG } from './document-catalog';
import {
  DOCUMENT_INFOGRAPHIC_EXAMPLE,
  DOCUMENT_SELECTION_EXAMPLE,
  DocumentInfographicResponse,
  DocumentSelectionResponse,
} from './dto/config.response';
import { ValidatorConfigService } from './validator-config.service';

export class InfographicQuery {
  @ApiPropertyOptional({ enum: DOCUMENT_COUNTRIES })
  @IsOptional()
  @UpperTrim()
  @IsIn(DOCUMENT_COUNTRIES, { message: `country must be one of ${DOCUMENT_COUNTRIES.join(', ')}` })
  country?: string;

  @ApiPropertyOptional({ enum: DOCUMENT_TYPES })
  @IsOptional()
  @IsIn(DOCUMENT_TYPES, { message: `document_type must be one of ${DOCUMENT_TYPES.join(', ')}` })
  document_type?: string;
}

const SIDE_CONTENT: Record<string, string[]> = {
  front: ['photo', 'names', 'document_number'],
  reverse: ['date_of_birth', 'expiration_date'],
};

/** Which documents a tenant's end users may present (its document_config applied) and how to photograph them. */
@ApiTags('config')
@BackendKeys()
@Controller('v1')
export class DocumentCatalogController {
  constructor(private readonly configs: ValidatorConfigService) {}

  @Get('config/document-selection')
  @ApiSuccess({ type: DocumentSelectionResponse, example: DOCUMENT_SELECTION_EXAMPLE })
  async selection(@CurrentCaller() caller: Caller) {
    const config = (await this.configs.documentConfig(caller.tenantId)) ?? {};
    return {
      countries: Object.entries(DOCUMENT_CATALOG).map(([country, entries]) => {
        const allowed = config[country]?.document_version;
        return {
          country,
          document_types: entries
            .map((e) => ({
              document_type: e.document_type,
              document_versions:
                allowed && e.versions.length ? e.versions.filter((v) => allowed.includes(v)) : e.versions,
              sides: e.sides,
              on_request: e.on_request ?? false,
            }))
            .filter((e) => !allowed || !e.document_versions.length || e.document_versions.length > 0),
        };
      }),
    };
  }

  @Get('document-infographic')
  @ApiSuccess({ type: DocumentInfographicResponse, example: DOCUMENT_INFOGRAPHIC_EXAMPLE })
  @ApiEnvelopeErrors(400)
  async infographic(@CurrentCaller() caller: Caller, @Query() query: InfographicQuery) {
    const config = (await this.configs.documentConfig(caller.tenantId)) ?? {};
    const countries = query.country ? [query.country] : Object.keys(DOCUMENT_CATALOG);
    return {
      documents: countries.flatMap((country) =>
        (DOCUMENT_CATALOG[country] ?? [])
          .filter((e) => !query.document_type || e.document_type === query.document_type)
          .map((e) => {
            const allowed = config[country]?.document_version;
            return {
              country,
              document_type: e.document_type,
              document_versions:
                allowed && e.versions.length ? e.versions.filter((v) => allowed.includes(v)) : e.versions,
              sides: e.sides.map((side) => ({
                side,
                shows: [...SIDE_CONTENT[side], ...(e.mrz_side === side ? ['mrz'] : [])],
              })),
              capture_tips: [
                'Place the document on a dark, flat surface',
                'All four corners visible, no glare, no fingers over the data',
                'Photograph the original, not a screen or a photocopy',
                ...(e.mrz_side ? [`The machine-readable lines on the ${e.mrz_side} must be sharp`] : []),
              ],
            };
          }),
      ),
    };
  }
}
