/** The console's languages: a file of its own, so that the catalogs and helpers need not import i18n.tsx. */
export type Lang = 'zh' | 'en';
