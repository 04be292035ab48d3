import { createContext, ReactNode, useCallback, useContext, useMemo, useState } from 'react';

import { Catalog, en, MessageKey } from './en';
import { es } from './es';
import { pt } from './pt';

export type Language = 'es' | 'pt' | 'en';
export const LANGUAGES: { value: Language; label: string }[] = [
  { value: 'es', label: 'Español' },
  { value: 'pt', label: 'Português' },
  { value: 'en', label: 'English' },
];
const CATALOGS: Record<Language, Catalog> = { es, pt, en };
const STORAGE_KEY = 'console.language';

/** The language the user chose before (remembered in this browser), else the browser's, else Spanish. */
function initialLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'es' || stored === 'pt' || stored === 'en') return stored;
  const browser = navigator.language.slice(0, 2);
  return browser === 'pt' || browser === 'en' ? browser : 'es';
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

interface I18n {
  language: Language;
  setLanguage: (language: Language) => void;
  t: Translate;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  const setLanguage = useCallback((next: Language) => {
    localStorage.setItem(STORAGE_KEY, next);
    document.documentElement.lang = next;
    setLanguageState(next);
  }, []);
  document.documentElement.lang = language;
  const t = useCallback<Translate>(
    (key, values) =>
      CATALOGS[language][key].replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? `{${name}}`)),
    [language],
  );
  const value = useMemo(() => ({ language, setLanguage, t }), [language, setLanguage, t]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
