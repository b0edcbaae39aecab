import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { getSynonyms, replaceSynonyms } from '../api/synonyms.ts';
import { PinsEditor } from './pins-editor.tsx';

/** One set per line, terms separated by commas (either width) or 、. */
function parseSets(text: string): { sets: string[][]; short: number[] } {
  const sets: string[][] = [];
  const short: number[] = [];
  text.split('\n').forEach((line, i) => {
    const terms = line
      .split(/[,，、]/)
      .map((t) => t.trim())
      .filter(Boolean);
    if (terms.length === 0) return;
    if (terms.length < 2) short.push(i + 1);
    else sets.push(terms);
  });
  return { sets, short };
}

const format = (sets: string[][]) => sets.map((set) => set.join(', ')).join('\n');

export default function SynonymsPage() {
  return (
    <KeyGate scope="curate">
      <Synonyms />
      <PinsEditor />
    </KeyGate>
  );
}

function Synonyms() {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const query = useQuery({ queryKey: ['synonyms'], queryFn: ({ signal }) => getSynonyms(signal) });
  const [text, setText] = useState<string | null>(null);
  const value = text ?? (query.data ? format(query.data.sets) : '');
  const parsed = parseSets(value);
  const save = useMutation({
    mutationFn: () => replaceSynonyms(parsed.sets),
    onSuccess: (reply) => {
      client.setQueryData(['synonyms'], reply);
      setText(null);
      // searches may match differently now
      void client.invalidateQueries({ queryKey: ['search'] });
    },
  });
  return (
    <section className="synonyms-page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{t.synonymsTitle}</h1>
      <p className="muted">{t.synonymsHelp}</p>
      {query.isError && <ErrorNote error={query.error} onRetry={() => query.refetch()} />}
      {query.isPending ? (
        <p className="muted">{t.loading}</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (parsed.short.length === 0) save.mutate();
          }}
        >
          <label htmlFor={`${id}-sets`}>{t.synonymsLabel}</label>
          <textarea
            id={`${id}-sets`}
            rows={Math.max(6, value.split('\n').length + 1)}
            value={value}
            spellCheck={false}
            placeholder={'大模型, 大语言模型, LLM\n多模态, multimodal'}
            aria-describedby={`${id}-state`}
            onChange={(e) => {
              setText(e.target.value);
              save.reset();
            }}
          />
          <p id={`${id}-state`} className={parsed.short.length > 0 ? 'notice error' : 'muted'} role="status">
            {parsed.short.length > 0 ? t.synonymsShort(parsed.short) : t.synonymsCount(parsed.sets.length)}
          </p>
          {save.isError && <ErrorNote error={save.error} />}
          {save.isSuccess && (
            <p className="note" role="status">
              {t.synonymsSaved}
            </p>
          )}
          <button type="submit" disabled={save.isPending || parsed.short.length > 0 || text === null}>
            {save.isPending ? t.loading : t.synonymsSave}
          </button>
        </form>
      )}
    </section>
  );
}
