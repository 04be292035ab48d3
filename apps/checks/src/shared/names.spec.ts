import { namesMatch, normalizeName } from './names';

describe('names', () => {
  it('normalizes case, accents, punctuation and spaces', () => {
    expect(normalizeName('  Pérez-Gómez,  José ')).toBe('PEREZ GOMEZ JOSE');
    expect(normalizeName('João da Silva')).toBe('JOAO DA SILVA');
  });

  it('exact needs the identical normalized name (order matters)', () => {
    expect(namesMatch('Juan Carlos Pérez Gómez', 'JUAN CARLOS PEREZ GOMEZ', 'exact')).toBe(true);
    expect(namesMatch('Juan Carlos Pérez Gómez', 'PEREZ GOMEZ JUAN CARLOS', 'exact')).toBe(false);
    expect(namesMatch('Juan Pérez', 'Juan Carlos Pérez Gómez', 'exact')).toBe(false);
  });

  it('soft ignores token order and omitted tokens, with at least two tokens in common', () => {
    expect(namesMatch('Juan Carlos Pérez Gómez', 'PEREZ GOMEZ JUAN CARLOS', 'soft')).toBe(true);
    expect(namesMatch('Juan Pérez', 'Juan Carlos Pérez Gómez', 'soft')).toBe(true);
    expect(namesMatch('Juan Carlos Pérez Gómez', 'Juan Pérez', 'soft')).toBe(true);
    expect(namesMatch('Juan', 'Juan Carlos Pérez', 'soft')).toBe(false);
    expect(namesMatch('Juan Pérez', 'Pedro Pérez', 'soft')).toBe(false);
  });

  it('soft tolerates one letter in long tokens only', () => {
    expect(namesMatch('Ana Gomez Ruiz', 'ANA GOMES RUIZ', 'soft')).toBe(true);
    expect(namesMatch('Ana Gomez Ruiz', 'ANA GOMES RUIZ', 'exact')).toBe(false);
    expect(namesMatch('Ana Ruiz', 'Eva Ruiz', 'soft')).toBe(false);
  });

  it('never matches empty names', () => {
    expect(namesMatch('', 'Ana', 'soft')).toBe(false);
    expect(namesMatch('Ana', '  ', 'exact')).toBe(false);
  });
});
