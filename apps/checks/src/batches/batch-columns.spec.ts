import { batchInputs, columnsFromMapping } from './batch-columns';
import { UploadLinkSigner } from './batch-upload-link';

describe('columnsFromMapping', () => {
  it('maps every input of the type in the documented order without a mapping', () => {
    expect(columnsFromMapping({}, 'company')).toEqual({
      columns: ['user_authorized', 'custom_input', 'tax_id', 'company_name', 'report_id'],
      errors: [],
    });
    expect(batchInputs('my-type')).toEqual(expect.arrayContaining(['national_id', 'license_plate', 'tax_id']));
  });

  it('reads flat form fields and JSON objects, leaving gaps as ignored columns', () => {
    expect(
      columnsFromMapping({ 'columns_mapping.national_id': '2', 'columns_mapping.first_name': '0' }, 'person').columns,
    ).toEqual(['first_name', null, 'national_id']);
    expect(columnsFromMapping({ columns_mapping: { tax_id: 1 } }, 'company').columns).toEqual([null, 'tax_id']);
  });

  it('names each bad mapping field', () => {
    const { errors } = columnsFromMapping(
      {
        'columns_mapping.license_plate': '0',
        'columns_mapping.national_id': '-1',
        'columns_mapping.first_name': '1.5',
        'columns_mapping.last_name': '3',
        'columns_mapping.passport': '3',
      },
      'person',
    );
    expect(errors.map((e) => e.field)).toEqual([
      'columns_mapping.license_plate',
      'columns_mapping.national_id',
      'columns_mapping.first_name',
      'columns_mapping.passport',
    ]);
    expect(columnsFromMapping({ columns_mapping: 'x' }, 'person').errors[0].field).toBe('columns_mapping');
  });
});

describe('UploadLinkSigner', () => {
  const signer = new UploadLinkSigner(Buffer.from('a-test-key-of-16+chars'));
  const at = new Date('2026-01-01T00:30:00Z');

  it('verifies its own signature and refuses another id, expiry or key', () => {
    const sig = signer.sign('BCH1', at);
    const expires = at.getTime() / 1000;
    expect(signer.verify('BCH1', expires, sig)).toBe(true);
    expect(signer.verify('BCH2', expires, sig)).toBe(false);
    expect(signer.verify('BCH1', expires + 1, sig)).toBe(false);
    expect(new UploadLinkSigner(Buffer.from('another-key-of-16+chars')).verify('BCH1', expires, sig)).toBe(false);
    expect(signer.verify('BCH1', expires, 'short')).toBe(false);
  });
});
