import { API_KEY_TYPES, ApiKeyType } from '@kyc/contracts';
import { isFormBody, ToArray } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';

// null is absence (the document declares these optional fields nullable): never Number(null), which is 0.
// A form sends numbers as text; JSON sends the number itself (a string, list or boolean is refused, not read).
const toNumber = ({ value, obj }: { value: unknown; obj: unknown }) =>
  value === undefined || value === null || value === ''
    ? undefined
    : typeof value === 'string' && isFormBody(obj)
      ? Number(value)
      : value;

export const API_KEY_GRANTS = ['digital-identity', 'signals', 'validations'] as const;
export const API_KEY_COUNTRIES = ['ALL', 'BR', 'CL', 'CO', 'CR', 'EC', 'MX', 'PE', 'AR', 'SV'] as const;
export const API_KEY_DOCUMENT_TYPES = ['passport', 'driver-license', 'foreign-id', 'national-id', 'pep'] as const;
const isDigitalIdentity = (o: CreateApiKeyDto) => o.grant === 'digital-identity';

/**
 * API key creation inputs (spec 2). Backend keys need a name; web and sdk keys need a grant; the
 * digital-identity grant needs a flow, a country and a redirect URL. The public names key_name,
 * flow_id and api_key_version are accepted as aliases of name, flow and version.
 */
export class CreateApiKeyDto {
  @ApiProperty({ enum: API_KEY_TYPES })
  @IsIn(API_KEY_TYPES, { message: 'key_type must be one of backend, web, sdk' })
  key_type!: ApiKeyType;

  @ApiPropertyOptional({ description: 'Key name; required for backend keys (alias: key_name)' })
  @ValidateIf((o: CreateApiKeyDto) => (o.key_name === undefined && o.key_type === 'backend') || o.name !== undefined)
  @IsString({ message: 'name (or key_name) is required for backend keys' })
  @MaxLength(128)
  name?: string;

  @ApiPropertyOptional({ description: 'Alias of name' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  key_name?: string;

  @ApiPropertyOptional({ enum: API_KEY_GRANTS, description: 'Required for web and sdk keys' })
  @ValidateIf((o: CreateApiKeyDto) => o.key_type === 'web' || o.key_type === 'sdk' || o.grant !== undefined)
  @IsIn(API_KEY_GRANTS, { message: 'grant is required for web and sdk keys: digital-identity or signals' })
  grant?: (typeof API_KEY_GRANTS)[number];

  @ApiPropertyOptional({ description: 'Flow id; required for the digital-identity grant (alias: flow_id)' })
  @ValidateIf((o: CreateApiKeyDto) => (isDigitalIdentity(o) && o.flow_id === undefined) || o.flow !== undefined)
  @IsString({ message: 'flow (or flow_id) is required for the digital-identity grant' })
  @MaxLength(64)
  flow?: string;

  @ApiPropertyOptional({ description: 'Alias of flow' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  flow_id?: string;

  @ApiPropertyOptional({ enum: API_KEY_COUNTRIES, description: 'Required for the digital-identity grant' })
  @ValidateIf((o: CreateApiKeyDto) => isDigitalIdentity(o) || o.country !== undefined)
  @IsIn(API_KEY_COUNTRIES, { message: `country must be one of ${API_KEY_COUNTRIES.join(', ')}` })
  country?: string;

  @ApiPropertyOptional({ enum: API_KEY_DOCUMENT_TYPES, description: 'Used with the digital-identity grant' })
  @IsOptional()
  @IsIn(API_KEY_DOCUMENT_TYPES, { message: `document_type must be one of ${API_KEY_DOCUMENT_TYPES.join(', ')}` })
  document_type?: string;

  @ApiPropertyOptional({ description: 'Where the user goes after the process; required for digital-identity' })
  @ValidateIf((o: CreateApiKeyDto) => isDigitalIdentity(o) || o.redirect_url !== undefined)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'redirect_url must be an http(s) URL (required for the digital-identity grant)' },
  )
  @MaxLength(2000)
  redirect_url?: string;

  @ApiPropertyOptional({ description: 'Pattern [a-zA-Z0-9_.-]+; generated when omitted (digital-identity only)' })
  @IsOptional()
  @Matches(/^[a-zA-Z0-9_.-]{1,128}$/, { message: 'account_id must match [a-zA-Z0-9_.-]+' })
  account_id?: string;

  @ApiPropertyOptional({ type: [String], description: 'E-mails to validate during the process' })
  @IsOptional()
  @ToArray()
  @IsArray()
  @ArrayMaxSize(10)
  @IsEmail({}, { each: true, message: 'emails must be e-mail addresses' })
  emails?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Phone numbers (E.164) to validate during the process' })
  @IsOptional()
  @ToArray()
  @IsArray()
  @ArrayMaxSize(10)
  @Matches(/^\+[1-9][0-9]{6,14}$/, { each: true, message: 'phone numbers must be E.164 (+ and 7 to 15 digits)' })
  phone?: string[];

  @ApiPropertyOptional({ description: 'Billing hub (customers using billing hubs)' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  billing_hub?: string;

  @ApiPropertyOptional({ enum: [0, 1], description: 'API key version; default 0 (alias: api_key_version)' })
  @IsOptional()
  @Transform(toNumber)
  @IsIn([0, 1], { message: 'version must be 0 or 1' })
  version?: 0 | 1;

  @ApiPropertyOptional({ enum: [0, 1], description: 'Alias of version' })
  @IsOptional()
  @Transform(toNumber)
  @IsIn([0, 1], { message: 'api_key_version must be 0 or 1' })
  api_key_version?: 0 | 1;

  @ApiPropertyOptional({
    description: 'Lifetime in seconds; backend keys never expire when omitted, web keys last 24 h',
  })
  @IsOptional()
  @Transform(toNumber)
  @IsInt()
  @Min(60)
  expires_in?: number;
}

/** Platform administration: a key for any tenant user (used to seed a tenant). */
export class AdminIssueApiKeyDto {
  @ApiProperty()
  @Matches(/^[a-z0-9][a-z0-9_-]{1,62}$/, { message: 'tenant_id is not a tenant id' })
  tenant_id!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(64)
  user_id!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(128)
  key_name!: string;

  @ApiProperty({ enum: ['backend'] })
  @IsIn(['backend'], { message: 'key_type must be backend' })
  key_type!: 'backend';

  @ApiPropertyOptional({ enum: [0, 1] })
  @IsOptional()
  @Transform(toNumber)
  @IsIn([0, 1], { message: 'api_key_version must be 0 or 1' })
  api_key_version?: 0 | 1;
}
