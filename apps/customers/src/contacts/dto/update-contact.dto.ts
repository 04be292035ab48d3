import { CustomValuesField, EmailField, NameField } from './contact-fields';

/** PUT: name, e-mail and custom property values (a null value removes it); the phone and external id stay. */
export class UpdateContactDto {
  @NameField()
  name?: string;

  @EmailField()
  email?: string;

  @CustomValuesField()
  custom_property_values?: Record<string, unknown>;
}
