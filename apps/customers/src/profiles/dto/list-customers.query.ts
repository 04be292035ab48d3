import { CursorPageQuery, ToBoolean, Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Validate,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';

export const SEARCH_FIELDS = ['document_id', 'email', 'phone_number'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

@ValidatorConstraint({ name: 'searchFieldContext' })
class SearchFieldContext implements ValidatorConstraintInterface {
  validate(_: unknown, args: ValidationArguments): boolean {
    const query = args.object as ListCustomersQuery;
    return query.search !== undefined && query.basic_info === true;
  }

  defaultMessage(): string {
    return 'search_field is only allowed together with search and basic_info=true';
  }
}

export class ListCustomersQuery extends CursorPageQuery {
  @ApiPropertyOptional({
    description:
      'true: each customer is its basic info only (id, name, country, phone, email, document_number, document_type, birthday, document_issue_date, gender)',
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'basic_info must be true or false' })
  basic_info?: boolean;

  @ApiPropertyOptional({ description: 'Document id, e-mail, name or phone (contains, case-insensitive)' })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 200, { message: 'search must be 1 to 200 characters' })
  search?: string;

  @ApiPropertyOptional({
    enum: SEARCH_FIELDS,
    description: 'Exact equality on this field; only with search and basic_info=true',
  })
  @IsOptional()
  @IsIn(SEARCH_FIELDS, { message: `search_field must be one of ${SEARCH_FIELDS.join(', ')}` })
  @Validate(SearchFieldContext)
  search_field?: SearchField;

  @ApiPropertyOptional({ description: 'true: exactly one customer must match (404 when none, 409 when several)' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'single_match must be true or false' })
  single_match?: boolean;
}
