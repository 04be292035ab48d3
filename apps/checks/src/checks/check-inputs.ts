import { BUILT_IN_CHECK_TYPES, CHECK_COUNTRIES, type CheckCountry } from '@kyc/contracts';
import { FieldError, toFieldErrors, ValidationFailedException } from '@kyc/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { compileDto } from './compiled-dto';
import { CHECK_INPUT_FIELDS, CreateCheckDto } from './dto/create-check.dto';

/** A valid body's CreateCheckDto without class-transformer and class-validator (see compileDto). */
const fastDto = compileDto(CreateCheckDto);

/** Person documents that identify someone without a name search. */
const PERSON_DOCUMENTS = ['national_id', 'foreign_id', 'passport', 'pep', 'ptp', 'diplomatic_id'] as const;

/**
 * Region of Brazil from a CPF: its 9th digit is the fiscal region that issued it (1 DF-GO-MS-MT-TO,
 * 2 PA-AM-AC-AP-RO-RR, 3 CE-MA-PI, 4 PE-RN-PB-AL, 5 BA-SE, 6 MG, 7 RJ-ES, 8 SP, 9 PR-SC, 0 RS).
 * The first state of each fiscal region is the one searched. null when it is not an 11-digit CPF.
 */
export function brazilRegionFromCpf(cpf: string | undefined): string | null {
  const digits = (cpf ?? '').replace(/[.\-\s]/g, '');
  if (!/^\d{11}$/.test(digits)) return null;
  return (
    {
      '0': 'RS',
      '1': 'DF',
      '2': 'PA',
      '3': 'CE',
      '4': 'PE',
      '5': 'BA',
      '6': 'MG',
      '7': 'RJ',
      '8': 'SP',
      '9': 'PR',
    } as Record<string, string>
  )[digits[8]];
}

export const isBuiltInType = (type: string) => (BUILT_IN_CHECK_TYPES as readonly string[]).includes(type);

export interface ParsedCheckInputs {
  dto: CreateCheckDto;
  /** Wire-named inputs kept on the check (control flags removed). */
  inputs: Record<string, string>;
  /** The region Brazil's courts are searched in: given, or derived from the CPF. null elsewhere. */
  region: string | null;
  errors: FieldError[];
}

/**
 * Validates create-check inputs (a plain object: a request body, a spreadsheet row, a stored check's
 * inputs) field by field and across fields. Every offending field is listed once. user_authorized is
 * left to the caller (it depends on the API key version).
 */
export function parseCheckInputs(body: Record<string, unknown>, now: Date): ParsedCheckInputs {
  const given = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
  // An optional field sent as null is absent (docs/api.md; the document declares them nullable): never
  // a given input for the rules across fields, nor stored as the text "null".
  // (the copy keeps the prototype: a form body stays recognizable, isFormBody)
  const plain = Object.create(Object.getPrototypeOf(given) as object | null) as Record<string, unknown>;
  for (const key of Object.keys(given)) if (given[key] !== null) plain[key] = given[key];
  // A body whose every field is valid skips both libraries; anything else gets their exact errors.
  const fast = fastDto?.(plain);
  const dto = fast ?? plainToInstance(CreateCheckDto, plain, { exposeDefaultValues: true });
  const errors = fast
    ? []
    : toFieldErrors(
        validateSync(dto, {
          whitelist: true,
          forbidUnknownValues: false,
          validationError: { target: false, value: false },
        }),
      );
  const bad = new Set(errors.map((e) => e.field));
  const add = (field: string, message: string) => {
    if (bad.has(field)) return;
    bad.add(field);
    errors.push({ field, message });
  };
  const has = (field: keyof CreateCheckDto) => dto[field] !== undefined && dto[field] !== '' && !bad.has(field);
  const countryOk = (CHECK_COUNTRIES as readonly string[]).includes(dto.country) && !bad.has('country');
  const country = dto.country;
  const type = typeof dto.type === 'string' ? dto.type : '';
  const today = now.toISOString().slice(0, 10);

  if (has('date_of_birth') && dto.date_of_birth! > today) add('date_of_birth', 'date_of_birth cannot be in the future');
  if (has('issue_date') && dto.issue_date! > today) add('issue_date', 'issue_date cannot be in the future');
  if (has('issue_date') && has('date_of_birth') && dto.issue_date! < dto.date_of_birth!)
    add('issue_date', 'issue_date cannot be before date_of_birth');
  if (dto.native_national_id !== undefined && dto.native_country === undefined)
    add('native_country', 'native_country is required when native_national_id is given');
  if (countryOk && dto.payment_date !== undefined && country !== 'CL')
    add('payment_date', 'payment_date applies to Chile (CL) only');
  if (countryOk && dto.region !== undefined && country !== 'BR') add('region', 'region applies to Brazil (BR) only');
  if (dto.owner_document_type !== undefined && dto.owner_document_id === undefined)
    add('owner_document_id', 'owner_document_id is required when owner_document_type is given');

  let region: string | null = null;
  if (countryOk && country === 'BR' && (type === 'person' || !isBuiltInType(type))) {
    if (
      has('national_id') &&
      (dto.document_type ?? 'national-id') === 'national-id' &&
      !brazilRegionFromCpf(dto.national_id)
    )
      add('national_id', 'national_id in Brazil is the CPF: 11 digits (dots and dash allowed)');
    region = dto.region ?? brazilRegionFromCpf(dto.national_id);
    if (!region && !bad.has('region') && type === 'person')
      add('region', 'region is required in Brazil when national_id (CPF) does not give the region of birth');
  }
  if (countryOk && type) requireTypeInputs(type, country, has, add);

  const inputs: Record<string, string> = {};
  for (const field of CHECK_INPUT_FIELDS)
    if (dto[field] !== undefined && dto[field] !== '') inputs[field] = String(dto[field]);
  return { dto, inputs, region, errors };
}

/** The inputs a type needs to search anything: 400 naming the field. */
function requireTypeInputs(
  type: string,
  country: CheckCountry,
  has: (f: keyof CreateCheckDto) => boolean,
  add: (f: string, m: string) => void,
) {
  const name = has('first_name') && has('last_name');
  const halfName = has('first_name') !== has('last_name');
  const document = PERSON_DOCUMENTS.some((f) => has(f));
  if (type === 'person') {
    if (country === 'ALL') {
      if (!name)
        add(
          has('first_name') ? 'last_name' : 'first_name',
          'an international (ALL) person check searches by name: first_name and last_name are required',
        );
    } else if (!document && !name) {
      if (halfName)
        add(has('first_name') ? 'last_name' : 'first_name', 'a search by name needs first_name and last_name');
      else
        add(
          'national_id',
          'a person check needs national_id (or foreign_id, passport, pep, ptp) or first_name and last_name',
        );
    }
  } else if (type === 'vehicle') {
    if (country === 'ALL') add('country', 'vehicle checks need the country of the vehicle (not ALL)');
    else if (!has('license_plate') && !has('vehicle_id'))
      add('license_plate', 'a vehicle check needs license_plate or vehicle_id');
  } else if (type === 'company') {
    if (country === 'ALL') {
      if (!has('company_name'))
        add('company_name', 'an international (ALL) company check searches by name: company_name is required');
    } else if (!has('tax_id') && !has('company_name')) add('tax_id', 'a company check needs tax_id or company_name');
  } else if (
    !document &&
    !name &&
    !['license_plate', 'vehicle_id', 'tax_id', 'company_name'].some((f) => has(f as keyof CreateCheckDto))
  ) {
    add(
      'national_id',
      'a check needs an identifying input: national_id (or another document), first_name and last_name, license_plate, vehicle_id, tax_id or company_name',
    );
  }
}

/** The input rules of a check creation alone (400 listing every offending field), before any other work. */
export function assertCheckInputs(body: unknown, now: Date): void {
  const { errors } = parseCheckInputs(body as Record<string, unknown>, now);
  if (errors.length) throw new ValidationFailedException(errors);
}
