// The window's text for what the main process sends: a notice's code in the UI language (plural
// forms by count), its English message for an unknown code or malformed parameters, errors wrapped
// in a translated sentence, the workspace picker's tools note, key hints (the masked key as sent,
// its source in words) and provider names (generic ones translated, brands as sent, also before the
// list has come). Real i18next with the app's own resources.
import { describe, expect, it } from 'vitest';
import { en } from '../../../src/renderer/src/i18n/en';
import { ja } from '../../../src/renderer/src/i18n/ja';
import { ko } from '../../../src/renderer/src/i18n/ko';
import { keyHintText, noticeText, providerLabel, providerLabelById } from '../../../src/renderer/src/i18n/notice-text';
import { NodeToolRuntime } from '../../../src/main/node/tools/node-tool-runtime';
import type { ProviderInfo } from '../../../src/shared/contract';
import { NOTICE_PARAMS } from '../../../src/shared/notice-params';
import { errorNotice } from '../../../src/shared/notices';
import { type NoticeText } from '../../../src/shared/notice-params';
import { appLanguages } from './app-i18n';

const inLanguage = appLanguages();

const FALLBACK = 'English text from the main process';
// What arrives from the wire is not checked by the type: any params at all.
const interrupted = (params: unknown): NoticeText => ({
  code: 'interrupted_chains',
  params: params as NoticeText['params'],
  message: FALLBACK,
});

describe('noticeText', () => {
  it('translates a known code with its count, in the plural form the count asks for', () => {
    expect(noticeText(inLanguage('en'), interrupted({ count: 1 }))).toBe(
      '1 retry chain was cut off when Resolute last stopped; it is marked interrupted in the history.',
    );
    expect(noticeText(inLanguage('en'), interrupted({ count: 2 }))).toMatch(/^2 retry chains were cut off/);
    expect(noticeText(inLanguage('ja'), interrupted({ count: 2 }))).toBe(
      '前回 Resolute が終了したとき、再試行中だった 2 件の処理が途中で打ち切られました。履歴では「中断」として記録されています。',
    );
    expect(noticeText(inLanguage('ko'), interrupted({ count: 3 }))).toBe(
      '지난번 Resolute가 종료될 때 재시도 중이던 작업 3건이 중간에 끊겼습니다. 기록에는 ‘중단됨’으로 표시되어 있습니다.',
    );
  });

  it('puts text parameters in place', () => {
    const notice = {
      code: 'history_damaged_in_use',
      params: { path: '/data/history.db', detail: 'database disk image is malformed' },
      message: FALLBACK,
    };
    expect(noticeText(inLanguage('ko'), notice)).toMatch(
      /^\/data\/history\.db의 기록 데이터베이스가 손상되었습니다\(database disk image is malformed\)/,
    );
    expect(noticeText(inLanguage('ja'), { ...notice, code: 'lock_taken_over', params: { pid: 4242 } })).toContain(
      'プロセス 4242',
    );
  });

  it('has a text in every language for every code the main process sends', () => {
    for (const code of Object.keys(NOTICE_PARAMS)) {
      for (const resource of [en, ja, ko]) {
        const keys = Object.keys(resource.notices);
        expect(
          keys.some((key) => key === code || key === `${code}_other`),
          code,
        ).toBe(true);
      }
    }
  });

  it('shows the English message for an unknown code, or none', () => {
    const ja = inLanguage('ja');
    expect(noticeText(ja, { code: 'from_a_newer_version', params: { count: 1 }, message: FALLBACK })).toBe(FALLBACK);
    expect(noticeText(ja, { code: 'toString', message: FALLBACK })).toBe(FALLBACK);
    expect(noticeText(ja, { message: FALLBACK })).toBe(FALLBACK);
  });

  it('shows the English message when the parameters are malformed', () => {
    const ko = inLanguage('ko');
    for (const params of [
      undefined,
      null,
      'two',
      {},
      { count: 'two' },
      { count: -1 },
      { count: 1.5 },
      { count: 2, x: 1 },
    ])
      expect(noticeText(ko, interrupted(params)), JSON.stringify(params)).toBe(FALLBACK);
    expect(noticeText(ko, { code: 'lock_taken_over', params: { pid: '<b>' }, message: FALLBACK })).toBe(FALLBACK);
  });
});

describe('notices wrapping an error', () => {
  const DETAIL_CODES = [
    'turn_save_failed',
    'retry_history_save_failed',
    'turn_internal_error',
    'compaction_retry_failed',
    'turn_command_failed',
    'simulator_script_not_applied',
    'catalogue_load_failed',
  ] as const;
  const detail = 'SqliteError: disk I/O error';

  it('say the sentence in the UI language and the error as it came', () => {
    for (const code of DETAIL_CODES) {
      const notice = errorNotice(code, 'English sentence', new Error(detail));
      expect(notice.message, code).toBe(`English sentence: ${detail}`);
      const texts = ['en', 'ja', 'ko'].map((lng) => noticeText(inLanguage(lng), notice));
      for (const text of texts) expect(text, code).toContain(detail);
      expect(new Set(texts).size, code).toBe(3);
    }
    const save = errorNotice('turn_save_failed', 'Could not save a turn to history', new Error(detail));
    expect(noticeText(inLanguage('ja'), save)).toBe(`ターンを履歴に保存できませんでした: ${detail}`);
    expect(noticeText(inLanguage('ko'), save)).toBe(`턴을 기록에 저장하지 못했습니다: ${detail}`);
    const log = {
      code: 'log_write_failed',
      params: { path: '/d/logs/retry-decisions.jsonl', detail },
      message: FALLBACK,
    };
    const extension = { ...log, code: 'extension_disabled', params: { path: '/x/ext.mjs', detail } };
    expect(noticeText(inLanguage('ja'), extension)).toBe(`拡張機能 /x/ext.mjs を無効にしました: ${detail}`);
    expect(noticeText(inLanguage('ko'), log)).toBe(
      `로그 파일 /d/logs/retry-decisions.jsonl에 기록하지 못했습니다: ${detail}`,
    );
  });

  it('take anything thrown as its text', () => {
    expect(errorNotice('catalogue_load_failed', 'Could not load the model catalogue', 'offline').params).toEqual({
      detail: 'offline',
    });
  });

  it('show the English message when the detail is missing or malformed', () => {
    const ja = inLanguage('ja');
    for (const params of [undefined, {}, { detail: 42 }, { detail: 'x', extra: 1 }, { detail: 'x'.repeat(4001) }])
      expect(
        noticeText(ja, { code: 'turn_command_failed', params: params as NoticeText['params'], message: FALLBACK }),
      ).toBe(FALLBACK);
    expect(noticeText(ja, { code: 'log_write_failed', params: { detail: 'x' }, message: FALLBACK })).toBe(FALLBACK);
  });
});

describe('the tools note', () => {
  const note = (platform: NodeJS.Platform) =>
    new NodeToolRuntime({ defaultWorkspace: '/nowhere', hidden: [], sandbox: { platform } }).bashUnavailable;

  it("is the main process's coded note, in the UI language", () => {
    const windows = note('win32') ?? { message: 'no note' };
    expect(windows.message).toMatch(/^bash is off on Windows/);
    expect(noticeText(inLanguage('ja'), windows)).toMatch(/^Windows では bash を使えません。/);
    expect(noticeText(inLanguage('ko'), windows)).toMatch(/^Windows에서는 bash를 쓸 수 없습니다\./);
    expect(note('linux')).toBeNull();
  });
});

describe('keyHintText', () => {
  const key = (source: string, hint: string | null) => ({ source, hint }) as Parameters<typeof keyHintText>[1];

  it('keeps the masked key as sent and says where it comes from in the UI language', () => {
    const ja = inLanguage('ja');
    const ko = inLanguage('ko');
    expect(keyHintText(ja, key('environment', 'sk-…9999'))).toBe('sk-…9999（環境変数）');
    expect(keyHintText(ko, key('environment', 'sk-…9999'))).toBe('sk-…9999 (환경 변수)');
    expect(keyHintText(inLanguage('en'), key('environment', 'sk-…9999'))).toBe('sk-…9999 (environment)');
    expect(keyHintText(ja, key('built-in', null))).toBe('内蔵');
    expect(keyHintText(ko, key('built-in', null))).toBe('내장');
    expect(keyHintText(ko, key('run', 'sk-…8888'))).toBe('sk-…8888 (이번 실행에만)');
    expect(keyHintText(ja, key('stored', 'sk-…7777'))).toBe('sk-…7777');
  });

  it('shows the masked key alone for a source it does not know', () => {
    expect(keyHintText(inLanguage('ko'), key('from-a-newer-version', 'sk-…1234'))).toBe('sk-…1234');
  });
});

describe('providerLabel', () => {
  it('translates the generic names and keeps the brands', () => {
    expect(providerLabel(inLanguage('ko'), { id: 'simulator', label: 'Simulator (built in)' })).toBe(
      '시뮬레이터(내장)',
    );
    expect(providerLabel(inLanguage('ja'), { id: 'openai-compatible', label: 'OpenAI-compatible server' })).toBe(
      'OpenAI 互換サーバー',
    );
    expect(providerLabel(inLanguage('en'), { id: 'simulator', label: 'x' })).toBe('Simulator (built in)');
    expect(providerLabel(inLanguage('ja'), { id: 'anthropic', label: 'Anthropic' })).toBe('Anthropic');
  });
});

describe('providerLabelById', () => {
  it('names every provider before the list has come: no raw id', () => {
    const ko = inLanguage('ko');
    expect(providerLabelById(ko, [], 'simulator')).toBe('시뮬레이터(내장)');
    expect(providerLabelById(inLanguage('ja'), [], 'openai-compatible')).toBe('OpenAI 互換サーバー');
    expect(providerLabelById(ko, [], 'openrouter')).toBe('OpenRouter');
    const listed = { id: 'anthropic', label: 'Anthropic (as sent)' } as ProviderInfo;
    expect(providerLabelById(ko, [listed], 'anthropic')).toBe('Anthropic (as sent)');
  });
});
