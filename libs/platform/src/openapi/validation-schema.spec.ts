import 'reflect-metadata';

import { Body, Controller, Get, Module, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Equals,
  IsDefined,
  IsIn,
  IsISO31661Alpha2,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';

import { FormBody } from '../validation/form-body';
import { Trim } from '../validation/transforms';
import { previewOpenApiDocument } from './openapi-document';

class NoteDto {
  @ApiProperty()
  @IsString()
  @MaxLength(20)
  title!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsObject()
  values?: Record<string, unknown>;
}

class ReportDto {
  @ApiProperty()
  @Matches(/^[a-z]{1,8}$/)
  report_id!: string;

  @ApiProperty()
  @IsIn(['all', 'one'])
  scope!: string;

  @ApiPropertyOptional({ description: 'required when scope is one' })
  @ValidateIf((o: ReportDto) => o.scope === 'one')
  @IsDefined()
  @IsString()
  item_id?: string;
}

class ConsentDto {
  @ApiProperty()
  @Trim()
  @IsString()
  @IsNotEmpty()
  name!: string;

  @ApiProperty()
  @Equals(true)
  user_authorized!: boolean;

  @ApiProperty()
  @IsISO31661Alpha2()
  country!: string;
}

class CountryQuery {
  @ApiProperty()
  @Matches(/^([A-Z]{2}|ALL)$/)
  country!: string;
}

@Controller('v1/things')
class ThingsController {
  @Post()
  create(@FormBody(NoteDto, ['values']) dto: NoteDto) {
    return dto;
  }

  @Put()
  update(@FormBody(NoteDto, ['values'], 2) dto: NoteDto) {
    return dto;
  }

  // validated by the route itself against the DTO it documents (as `@ValidatesBody` routes do)
  @Post('reports')
  @ApiBody({ type: ReportDto })
  report(@Body() body: Record<string, unknown>) {
    return body;
  }

  @Post('consents')
  consent(@Body() body: ConsentDto) {
    return body;
  }

  // one route at two paths: two operations, `Things_health[0]` and `Things_health[1]`
  @Get(['health', 'status/health'])
  health(@Query() query: CountryQuery) {
    return query;
  }

  @Get(':thing_id')
  one(@Param('thing_id') id: string) {
    return id;
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

type Doc = Awaited<ReturnType<typeof previewOpenApiDocument>>;
const bodyOf = (doc: Doc, path: string, method: 'post' | 'put') =>
  doc.paths[path][method]!.requestBody as { description?: string; content: Record<string, unknown> };

describe('OpenAPI request bodies from the validation rules', () => {
  let doc: Doc;
  beforeAll(async () => {
    doc = await previewOpenApiDocument({ module: { module: ThingsModule }, title: 'things' });
  });

  it('a @FormBody route documents the form after JSON: folded fields as JSON text, dotted names described', () => {
    const body = bodyOf(doc, '/v1/things', 'post');
    expect(Object.keys(body.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(body.content['application/x-www-form-urlencoded']).toEqual({
      schema: { $ref: '#/components/schemas/NoteDto' },
      encoding: { values: { contentType: 'application/json' } },
    });
    expect(body.description).toContain('`values.<name>`');
    expect(body.description).not.toContain('<field>');
    expect(bodyOf(doc, '/v1/things', 'put').description).toContain('`values.<field>.<name>`');
  });

  it("a body documented with @ApiBody({ type }) and validated by the route carries the DTO's rules", () => {
    const schema = doc.components!.schemas!.ReportDto as { properties: Record<string, { pattern?: string }> };
    expect(schema.properties.report_id.pattern).toBe('^[a-z]{1,8}$');
  });

  it('a field required only when another says so (@ValidateIf with @IsDefined) is not required in the schema', () => {
    expect((doc.components!.schemas!.ReportDto as { required?: string[] }).required).toEqual(['report_id', 'scope']);
  });

  it('a trimmed, non-empty string needs a character other than white space; Equals and ISO country codes are enums', () => {
    const schema = doc.components!.schemas!.ConsentDto as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties.name.pattern).toBe('\\S');
    expect(schema.properties.user_authorized).toMatchObject({ type: 'boolean', enum: [true] });
    expect(schema.properties.country.enum).toEqual(expect.arrayContaining(['AR', 'BR', 'CO', 'MX']));
    expect(schema.properties.country.enum).not.toContain('XX');
  });

  it("a route served at two paths carries its query DTO's rules on both", () => {
    for (const path of ['/v1/things/health', '/v1/things/status/health']) {
      const parameters = doc.paths[path].get!.parameters as { name: string; schema: { pattern?: string } }[];
      expect(parameters.find((p) => p.name === 'country')?.schema.pattern).toBe('^([A-Z]{2}|ALL)$');
    }
  });

  it('a path parameter is bounded by the router, and its 414 is documented', () => {
    const op = doc.paths['/v1/things/{thing_id}'].get!;
    expect((op.parameters as { schema: { maxLength?: number } }[])[0].schema.maxLength).toBe(100);
    expect(op.responses['414']).toEqual({ $ref: '#/components/responses/UriTooLong' });
  });
});
