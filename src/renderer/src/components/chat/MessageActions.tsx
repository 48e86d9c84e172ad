// The chat's message actions, one entry each in one keyed map: where it shows (a message bubble or
// a failed chain's card), when it is offered, its words and what a click does. MessageBubble and
// ErroredChainCard render the entries that apply, in the map's order; ChatView only says where a
// row stands (RowState). A new action is one entry here (and its words in i18n/), nothing else in
// the chat. Shared by the live chat and the read-only history (nothing live is offered there).
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { latestAttempt, type ErroredChainItem, type MessageItem } from '../../chat/chat-items';
import { CopyButton } from '../../markdown/CopyButton';
import { BranchSwitch } from './BranchSwitch';
import type { Actions } from '../../store/actions';
import type { RowState } from '../../chat/same-row';
import { useActions, useAppState } from '../../store/app-store';
import { RetryAtButton, namedRetryTime } from './RetryAtButton';
import { ContinueOnMenu, useContinueOnChoices } from './ContinueOnMenu';
import type { ModelRef } from '../../../../shared/settings';
import { RETRYABLE_CATEGORIES } from '../../../../shared/retry-policy/retryable';
import { RestoreFiles } from '../../tools/RestoreFiles';
import { ResendButton } from './ResendButton';

/** What an action is given: its row, the store's actions, and the row's own controls. */
interface ActionContext<Item> {
  item: Item;
  row: RowState;
  actions: Actions;
  /** The session model's provider (Check your API key opens its settings). */
  provider: string | null;
  /** Open the bubble's edit box in place. */
  startEditing: () => void;
  /** The models "Continue on…" offers (ContinueOnMenu.tsx). */
  continueOn: readonly ModelRef[];
}

interface ActionSpec<Item> {
  testId: string;
  label: (t: TFunction) => string;
  /** The accessible name, when the visible label alone is ambiguous. */
  ariaLabel?: (t: TFunction) => string;
  offers: (ctx: ActionContext<Item>) => boolean;
  run: (ctx: ActionContext<Item>) => void;
  /** Its own element instead of a plain button (Copy says "Copied" for a moment). */
  render?: (ctx: ActionContext<Item>, t: TFunction) => ReactNode;
}

/** The rows that offer actions: a message bubble and a failed chain's card. */
export type ActionRow = MessageItem | ErroredChainItem;

type MessageAction = ActionSpec<ActionRow>;

/** An action on one kind of row: offered only there, given that row's own item. */
function on<Item extends ActionRow>(kind: Item['kind'], spec: ActionSpec<Item>): MessageAction {
  const isMine = (ctx: ActionContext<ActionRow>): ctx is ActionContext<Item> => ctx.item.kind === kind;
  const { render } = spec;
  return {
    ...spec,
    offers: (ctx) => isMine(ctx) && spec.offers(ctx),
    run: (ctx) => (isMine(ctx) ? spec.run(ctx) : undefined),
    render: render && ((ctx, t) => (isMine(ctx) ? render(ctx, t) : null)),
  };
}

const onMessage = (spec: ActionSpec<MessageItem>): MessageAction => on('message', spec);
const onCard = (spec: ActionSpec<ErroredChainItem>): MessageAction => on('errored-chain', spec);

/** A turn the action started, then the message box (as after Send). */
const thenComposer = (actions: Actions, started: Promise<unknown>): void =>
  void started.then(() => actions.requestFocus('composer'));

/** The live chat's last failed card may be tried again (Retry, Resend, Continue). */
const canRetry = ({ row }: ActionContext<ErroredChainItem>): boolean => row.isLive && row.isLast;

/**
 * A refused tool call would be refused again: the ways on are Continue (the bar under the chat, the
 * model told of the refusal) and Resend (asked differently), not Retry nor the card's Continue.
 */
const isRefusal = ({ item }: ActionContext<ErroredChainItem>): boolean =>
  latestAttempt(item).category?.startsWith('sandbox') ?? false;

export const MESSAGE_ACTIONS = {
  versions: onMessage({
    testId: 'branch-switch',
    label: (t) => t('branch.label'),
    // Also in the history and on an earlier version: it only changes which version is shown.
    offers: ({ item }) => item.versions !== undefined,
    run: () => undefined,
    render: ({ item }) => item.versions && <BranchSwitch versions={item.versions} />,
  }),
  copy: onMessage({
    testId: 'copy-message',
    label: (t) => t('actions.copy'),
    ariaLabel: (t) => t('actions.copyMessage'),
    offers: () => true,
    run: () => undefined,
    render: ({ item }, t) => (
      <CopyButton
        text={item.text}
        testId="copy-message"
        label={t('actions.copy')}
        ariaLabel={t('actions.copyMessage')}
      />
    ),
  }),
  edit: onMessage({
    testId: 'edit-message',
    label: (t) => t('actions.edit'),
    ariaLabel: (t) => t('actions.editLabel'),
    offers: ({ item, row }) => row.isLive && item.role === 'user' && item.turnId !== null,
    run: ({ startEditing }) => startEditing(),
  }),
  restoreFiles: onMessage({
    testId: 'restore-files',
    label: (t) => t('files.restoreHere'),
    // Only in the live chat while nothing runs, on an earlier message from which on changes are in place.
    offers: ({ item, row }) => row.isLive && item.role === 'user' && item.restoreFiles === true && item.turnId !== null,
    run: () => undefined,
    render: ({ item }) => item.turnId && <RestoreFiles turnId={item.turnId} />,
  }),
  regenerate: onMessage({
    testId: 'regenerate',
    label: (t) => t('actions.regenerate'),
    ariaLabel: (t) => t('actions.regenerateLabel'),
    offers: ({ item, row }) => row.isLive && row.isLast && item.role === 'assistant' && item.turnId !== null,
    run: ({ actions }) => thenComposer(actions, actions.regenerate()),
  }),
  retryAt: onCard({
    testId: 'card-retry-at',
    label: (t) => t('errored.retryAt', { time: '' }),
    offers: (ctx) => canRetry(ctx) && ctx.item.chainId !== null && namedRetryTime(ctx.item) !== undefined,
    run: () => undefined,
    // Its own button: its words name the time, and it is gone once that time has passed.
    render: ({ item }) => item.chainId && <RetryAtButton chainId={item.chainId} at={namedRetryTime(item) ?? 0} />,
  }),
  checkKey: onCard({
    testId: 'check-api-key',
    label: (t) => t('errored.checkKey'),
    // Also in the history and while a turn runs: it only opens Settings.
    offers: ({ item, provider }) => latestAttempt(item).category === 'auth' && provider !== null,
    run: ({ actions, provider }) => provider && actions.openProviderSettings(provider),
  }),
  continue: onCard({
    testId: 'card-continue',
    label: (t) => t('errored.continue'),
    ariaLabel: (t) => t('errored.continueLabel'),
    offers: (ctx) => canRetry(ctx) && !isRefusal(ctx) && Boolean(latestAttempt(ctx.item).partial?.text.trim()),
    run: ({ actions }) => void actions.call('session.continue', {}),
  }),
  continueOn: onCard({
    testId: 'card-continue-on',
    label: (t) => t('errored.continueOn'),
    // A retryable failure (an outage, a limit): another model may answer where this one did not.
    offers: (ctx) =>
      canRetry(ctx) &&
      ctx.continueOn.length > 0 &&
      (RETRYABLE_CATEGORIES as readonly (string | null)[]).includes(latestAttempt(ctx.item).category),
    run: () => undefined,
    render: ({ continueOn }) => <ContinueOnMenu choices={continueOn} />,
  }),
  retry: onCard({
    testId: 'card-retry',
    label: (t) => t('errored.retry'),
    ariaLabel: (t) => t('errored.retryLabel'),
    offers: (ctx) => canRetry(ctx) && !isRefusal(ctx),
    run: ({ actions }) => thenComposer(actions, actions.regenerate()),
  }),
  resend: onCard({
    testId: 'card-resend',
    label: (t) => t('errored.resend'),
    ariaLabel: (t) => t('errored.resendLabel'),
    offers: (ctx) => canRetry(ctx) && ctx.item.prompt !== null,
    // The plain resend; the card draws its own element, which offers to undo the run's files first.
    run: ({ actions, item }) =>
      item.prompt && thenComposer(actions, actions.edit(item.prompt.turnId, item.prompt.text)),
    render: ({ item }) => <ResendButton item={item} />,
  }),
} satisfies Record<string, MessageAction>;

export type MessageActionId = keyof typeof MESSAGE_ACTIONS;

interface MessageActionsProps {
  item: ActionRow;
  row: RowState;
  startEditing?: () => void;
  /** Drawn before the buttons (the bubble's time). */
  children?: ReactNode;
  className: string;
}

/** The buttons of the actions a row offers, in the map's order; nothing when there are none. */
export function MessageActions({
  item,
  row,
  startEditing = () => undefined,
  children,
  className,
}: MessageActionsProps) {
  const { t } = useTranslation();
  const actions = useActions();
  const provider = useAppState((s) => s.session.model?.provider ?? null);
  const continueOn = useContinueOnChoices();
  const ctx: ActionContext<ActionRow> = { item, row, actions, provider, startEditing, continueOn };
  const entries = (Object.entries(MESSAGE_ACTIONS) as [MessageActionId, MessageAction][]).filter(([, action]) =>
    action.offers(ctx),
  );
  if (entries.length === 0 && !children) return null;
  return (
    <div className={className}>
      {children}
      {entries.map(([id, action]) =>
        action.render ? (
          <Fragment key={id}>{action.render(ctx, t)}</Fragment>
        ) : (
          <button
            key={id}
            type="button"
            className="button button-small"
            data-testid={action.testId}
            data-action={id}
            aria-label={action.ariaLabel?.(t)}
            onClick={() => action.run(ctx)}
          >
            {action.label(t)}
          </button>
        ),
      )}
    </div>
  );
}
