import type { RouterInputs, RouterOutputs } from '@directory/core';

/** The payload of one project to create or update (SPEC "ProjectInput"). */
export type ProjectInput = RouterInputs['projects']['upsert']['projects'][number];

/** A discovery task as the service returns it. */
export type Task = RouterOutputs['tasks']['get']['task'];

export type TaskStatus = Task['status'];

/**
 * The server takes any JSON as `explorationData` (it validates it as a ProjectInput after
 * checking the task's state); the SDK asks for a ProjectInput so mistakes show at compile time.
 */
export type CompleteTaskInput = Omit<RouterInputs['tasks']['complete'], 'explorationData'> & {
  explorationData: ProjectInput;
};

/**
 * The schema reads `limit` and `offset` from query-string text, so its input type is
 * `unknown`; the SDK sends numbers.
 */
export type ListTasksInput = Omit<RouterInputs['tasks']['list'], 'limit' | 'offset'> & {
  limit?: number;
  offset?: number;
};

/** A change of the feed (GET /api/changes). */
export type Change = RouterOutputs['changes']['list']['changes'][number];

/** Query-string numbers (see ListTasksInput). */
export type ListChangesInput = { after?: string; limit?: number; wait?: number };

export type Webhook = RouterOutputs['webhooks']['get']['webhook'];

/** The input of every SDK method that maps to one endpoint. */
export type Inputs = {
  projects: RouterInputs['projects'];
  changes: { list: ListChangesInput };
  webhooks: Omit<RouterInputs['webhooks'], 'deliveries' | 'list'> & {
    list: { enabled?: 'true' | 'false' } | undefined;
    deliveries: { id: string; limit?: number };
  };
  tasks: Omit<RouterInputs['tasks'], 'list' | 'complete'> & {
    list: ListTasksInput;
    complete: CompleteTaskInput;
  };
};

/** One method per endpoint; each resolves to the full success body of the REST response. */
export type Endpoints = {
  [N in keyof Inputs]: {
    [P in keyof Inputs[N] & keyof RouterOutputs[N]]: (input: Inputs[N][P]) => Promise<RouterOutputs[N][P]>;
  };
};
