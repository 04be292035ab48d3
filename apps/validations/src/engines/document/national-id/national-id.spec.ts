import { nitVerifier, validateCedulaCo } from './cedula-co';
import { validateCpf } from './cpf';
import { validateCurp } from './curp';
import { dniPeVerifier, validateDniPe } from './dni-pe';
import { checkNationalId } from './national-id';
import { rutVerifier, validateRut } from './rut';

describe('national ID numbers', () => {
  describe('CPF (BR)', () => {
    it('accepts published valid numbers, with or without punctuation', () => {
      expect(validateCpf('529.982.247-25').valid).toBe(true);
      expect(validateCpf('11144477735').valid).toBe(true);
    });
    it('refuses a wrong check digit, a wrong length and a repeated digit', () => {
      expect(validateCpf('529.982.247-24')).toMatchObject({ valid: false, reason: 'check_digit' });
      expect(validateCpf('111.444.777-53')).toMatchObject({ valid: false, reason: 'check_digit' });
      expect(validateCpf('5299822472')).toMatchObject({ valid: false, reason: 'format' });
      expect(validateCpf('111.111.111-11')).toMatchObject({ valid: false, reason: 'format' });
    });
  });

  describe('CURP (MX)', () => {
    it('accepts a valid CURP (python-stdnum example) in any case', () => {
      expect(validateCurp('BOXW310820HNERXN09').valid).toBe(true);
      expect(validateCurp('boxw310820hnerxn09').valid).toBe(true);
    });
    it('refuses a wrong check digit and a malformed CURP (bad month, bad state)', () => {
      expect(validateCurp('BOXW310820HNERXN08')).toMatchObject({ valid: false, reason: 'check_digit' });
      expect(validateCurp('BOXW311320HNERXN09')).toMatchObject({ valid: false, reason: 'format' });
      expect(validateCurp('BOXW310820HZZRXN09')).toMatchObject({ valid: false, reason: 'format' });
    });
  });

  describe('RUT (CL)', () => {
    it('accepts valid RUTs in the usual spellings, K verifier included', () => {
      expect(validateRut('12.345.678-5')).toMatchObject({ valid: true, normalized: '12345678-5' });
      expect(validateRut('123456785').valid).toBe(true);
      expect(validateRut('12345678<5').valid).toBe(true);
      expect(rutVerifier('10000013')).toBe('K');
      expect(validateRut('10.000.013-k').valid).toBe(true);
    });
    it('refuses a wrong verifier and letters in the body', () => {
      expect(validateRut('12.345.678-6')).toMatchObject({ valid: false, reason: 'check_digit' });
      expect(validateRut('1234A678-5')).toMatchObject({ valid: false, reason: 'format' });
    });
  });

  describe('DNI (PE)', () => {
    it('accepts 8 digits alone or with the right verification character (digit or letter)', () => {
      expect(validateDniPe('45678912').valid).toBe(true);
      // weights 3,2,7,6,5,4,3,2 over 4,5,6,7,8,9,1,2 = 12+10+42+42+40+36+3+4 = 189; 11 - 189 % 11 = 9
      expect(dniPeVerifier('45678912')).toBe('4');
      expect(validateDniPe('45678912-4').valid).toBe(true);
      expect(validateDniPe('45678912I').valid).toBe(true);
    });
    it('refuses a wrong verification character and a wrong length', () => {
      expect(validateDniPe('45678912-5')).toMatchObject({ valid: false, reason: 'check_digit' });
      expect(validateDniPe('4567891')).toMatchObject({ valid: false, reason: 'format' });
    });
  });

  describe('cédula (CO)', () => {
    it('accepts 3 to 10 digits and a NIT with its DIAN verification digit', () => {
      expect(validateCedulaCo('1.020.304.050').valid).toBe(true);
      // DIAN example: NIT 800197268 has verification digit 4.
      expect(nitVerifier('800197268')).toBe(4);
      expect(validateCedulaCo('800197268-4').valid).toBe(true);
    });
    it('refuses a leading zero, letters, too many digits and a wrong NIT digit', () => {
      expect(validateCedulaCo('0123456')).toMatchObject({ valid: false, reason: 'format' });
      expect(validateCedulaCo('12345A')).toMatchObject({ valid: false, reason: 'format' });
      expect(validateCedulaCo('12345678901')).toMatchObject({ valid: false, reason: 'format' });
      expect(validateCedulaCo('800197268-5')).toMatchObject({ valid: false, reason: 'check_digit' });
    });
  });

  it('dispatches by country and has no algorithm for others', () => {
    expect(checkNationalId('br', '52998224725')).toMatchObject({ valid: true, scheme: 'CPF' });
    expect(checkNationalId('AR', '12345678')).toBeUndefined();
  });
});
