// main プロセスが出す通知の日本語文（docs/architecture.md の "Notices"）。コードごと。ja.ts が
// `notices` として読み込む。単複の区別はないため _one と _other に同じ文を置く。
import type { Messages } from './en';

export const noticesJa: Messages['notices'] = {
  interrupted_chains_one:
    '前回 Resolute が終了したとき、再試行中だった {{count}} 件の処理が途中で打ち切られました。履歴では「中断」として記録されています。',
  interrupted_chains_other:
    '前回 Resolute が終了したとき、再試行中だった {{count}} 件の処理が途中で打ち切られました。履歴では「中断」として記録されています。',
  history_backup:
    'このバージョンで履歴をスキーマ {{to}} に更新しました。古いバージョン用に、更新前（スキーマ {{from}}）のコピーを {{path}} に保管しています。',
  lock_taken_over: '前回 Resolute は正常に終了しませんでした（プロセス {{pid}}）。残っていたロックを引き継ぎました。',
  settings_invalid: '設定ファイルが壊れていたため（{{detail}}）、{{aside}} として保管し、既定の設定を使っています。',
  settings_unknown_keys:
    '設定ファイルに、このバージョンでは使えない項目があります（{{names}}）。ファイルには残しますが、使用しません。',
  settings_mcp_skipped:
    '設定ファイルの MCP サーバーのうち無効なものは起動しませんでした（{{detail}}）。ファイルには残してあります。',
  settings_mcp_secrets_missing:
    'MCP のシークレットを資格情報ストアから読み出せませんでした（{{detail}}）。設定 → MCP で入力し直してください。',
  settings_script_cleared: '設定ファイルのシミュレーター用スクリプトが無効だったため（{{detail}}）、空にしました。',
  credentials_unreadable:
    '認証情報ファイルを読み込めませんでした（{{detail}}）。{{aside}} として保管し、新しいファイルを作成します。保存済みの API キーは使われないため、「設定 → プロバイダー」で追加し直してください。',
  credentials_undecryptable_one:
    '保存済みの API キー {{count}} 件（{{providers}}）を復号できませんでした。鍵ファイル .credentials.key が見つからないか置き換えられたか、デスクトップアプリのキーチェーンで暗号化されたキーです。キーは {{path}} に残っていますが、使用されません。鍵ファイルを元に戻すか、キーを追加し直してください。',
  credentials_undecryptable_other:
    '保存済みの API キー {{count}} 件（{{providers}}）を復号できませんでした。鍵ファイル .credentials.key が見つからないか置き換えられたか、デスクトップアプリのキーチェーンで暗号化されたキーです。キーは {{path}} に残っていますが、使用されません。鍵ファイルを元に戻すか、キーを追加し直してください。',
  keychain_key_file:
    'システムのキーチェーンが使えないため、API キーはデータフォルダー内の鍵ファイルで暗号化しています。',
  keys_not_stored:
    'システムのキーチェーンが使えず、鍵ファイルの使用も断られたため、API キーは保存されません。RESOLUTE_API_KEY か --api-key-file でキーを指定するか、起動し直して鍵ファイルの使用を許可してください。',
  history_damaged_in_use:
    '{{path}} の履歴データベースが破損しています（{{detail}}）。起動後のバックグラウンドの整合性チェックで見つかりました。ファイルの移動や削除はしていません。Resolute を再起動すると、このファイルを別名で退避し、空の履歴で始められます（コマンドラインでは --reset-damaged-history）。',
  compaction_still_too_long:
    '会話を要約しても、まだモデルが扱える長さを超えています。新しいチャットを始めるか、メッセージを短くしてください。',
  bash_off_on_windows:
    'Windows では bash を使えません。Resolute がコマンドを実行できる OS のサンドボックスがなく、サンドボックスの外でコマンドを実行することはないためです。ファイル操作のツール（read、ls、find、grep、write、edit）は引き続き使えます。',
  turn_save_failed: 'ターンを履歴に保存できませんでした: {{detail}}',
  retry_history_save_failed: '再試行の記録を履歴に保存できませんでした: {{detail}}',
  turn_internal_error: 'ターンの処理中に内部エラーが発生しました: {{detail}}',
  compaction_retry_failed: '要約のあと、再試行できませんでした: {{detail}}',
  turn_command_failed: 'ターンを実行できませんでした: {{detail}}',
  simulator_script_not_applied: 'シミュレーター用スクリプトを適用できませんでした: {{detail}}',
  catalogue_load_failed: 'モデル一覧を読み込めませんでした: {{detail}}',
  log_write_failed: 'ログファイル {{path}} に書き込めませんでした: {{detail}}',
  extension_disabled: '拡張機能 {{path}} を無効にしました: {{detail}}',
};
