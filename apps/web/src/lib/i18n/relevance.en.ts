/**
 * A project's signals (features/projects/components/project-page.tsx, compare-revisions.tsx) and the
 * curated results beside the synonyms (features/synonyms/components/pins-editor.tsx).
 */
export const relevanceEn = {
  stars: 'Stars',
  downloads: 'Downloads',
  field_signals: 'Signals',
  pinsTitle: 'Curated results',
  pinsHelp:
    'For a query, the projects shown first (in this order, even when they do not match its words) and those never shown. Slugs separated by commas.',
  pinsQuery: 'Query',
  pinsFirst: 'Shown first',
  pinsHide: 'Hidden',
  pinsRemove: (query: string) => (query.trim() ? `Remove the pin of “${query.trim()}”` : 'Remove this pin'),
  pinsAdd: 'Add a pin',
  pinsCount: (n: number) => (n === 1 ? '1 pin' : `${n} pins`),
  pinsSave: 'Save pins',
  pinsSaved: 'Saved: searches use them now.',
  pinsPreview: (q: string) => `First page of “${q}” as it will be`,
  pinsPreviewEmpty: 'Nothing would be shown.',
  pinsPinned: 'Pinned',
};
