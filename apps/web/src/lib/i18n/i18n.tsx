import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { en, type Messages } from './en.ts';
import type { Lang } from './lang.ts';
import { zh } from './zh.ts';

export type { Lang, Messages };

const STORAGE = 'directory.lang';

const MESSAGES: Record<Lang, Messages> = { en, zh };

function detectLang(): Lang {
  try {
    const stored = localStorage.getItem(STORAGE);
    if (stored === 'zh' || stored === 'en') return stored;
  } catch {
    // no storage: fall back to the browser's languages
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

interface I18n {
  lang: Lang;
  t: Messages;
  setLang(lang: Lang): void;
  formatDate(iso: string): string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(detectLang);
  const setLang = useCallback((next: Lang) => {
    setLangState(next);
    try {
      localStorage.setItem(STORAGE, next);
    } catch {
      // not remembered, still switched
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = MESSAGES[lang].appName;
  }, [lang]);
  const value = useMemo<I18n>(() => {
    const dates = new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', {
      dateStyle: 'medium',
      timeStyle: 'medium',
    });
    return { lang, t: MESSAGES[lang], setLang, formatDate: (iso) => dates.format(new Date(iso)) };
  }, [lang, setLang]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}

/** The name to show first in the current language, and the other one (if any). */
export function localName(lang: Lang, name: string, nameEn: string | null): [string, string | null] {
  if (lang === 'en' && nameEn) return [nameEn, nameEn === name ? null : name];
  return [name, nameEn && nameEn !== name ? nameEn : null];
}
