// main 프로세스가 내는 알림의 한국어 문장(docs/architecture.md의 "Notices"), 코드별. ko.ts가
// `notices`로 불러온다. 단복수 구별이 없어 _one과 _other에 같은 문장을 둔다.
import type { Messages } from './en';

export const noticesKo: Messages['notices'] = {
  interrupted_chains_one:
    '지난번 Resolute가 종료될 때 재시도 중이던 작업 {{count}}건이 중간에 끊겼습니다. 기록에는 ‘중단됨’으로 표시되어 있습니다.',
  interrupted_chains_other:
    '지난번 Resolute가 종료될 때 재시도 중이던 작업 {{count}}건이 중간에 끊겼습니다. 기록에는 ‘중단됨’으로 표시되어 있습니다.',
  history_backup:
    '이 버전에서 기록을 스키마 {{to}}(으)로 업데이트했습니다. 이전 버전을 위해 업데이트 전(스키마 {{from}}) 사본을 {{path}}에 보관합니다.',
  lock_taken_over:
    '지난번 Resolute가 정상적으로 종료되지 않았습니다(프로세스 {{pid}}). 남아 있던 잠금을 넘겨받았습니다.',
  settings_invalid: '설정 파일이 올바르지 않아({{detail}}) {{aside}}(으)로 보관하고 기본 설정을 사용합니다.',
  settings_unknown_keys:
    '설정 파일에 이 버전이 모르는 항목이 있습니다({{names}}). 파일에는 그대로 두지만 사용하지 않습니다.',
  settings_mcp_skipped:
    '설정 파일의 MCP 서버 중 올바르지 않은 것은 시작하지 않았습니다({{detail}}). 파일에는 그대로 둡니다.',
  settings_mcp_secrets_missing:
    'MCP 비밀 값을 자격 증명 저장소에서 읽을 수 없었습니다({{detail}}). 설정 → MCP에서 다시 입력하세요.',
  settings_script_cleared: '설정 파일의 시뮬레이터 스크립트가 올바르지 않아({{detail}}) 비웠습니다.',
  credentials_unreadable:
    '인증 정보 파일을 읽을 수 없어({{detail}}) {{aside}}(으)로 보관하고 새 파일을 만듭니다. 저장된 API 키는 사용되지 않으니 설정 → 공급자에서 다시 추가하세요.',
  credentials_undecryptable_one:
    '저장된 API 키 {{count}}개({{providers}})를 복호화할 수 없습니다. 키 파일 .credentials.key가 없거나 바뀌었거나, 데스크톱 앱의 키체인으로 암호화된 키입니다. 키는 {{path}}에 그대로 있지만 사용되지 않습니다. 키 파일을 되돌리거나 키를 다시 추가하세요.',
  credentials_undecryptable_other:
    '저장된 API 키 {{count}}개({{providers}})를 복호화할 수 없습니다. 키 파일 .credentials.key가 없거나 바뀌었거나, 데스크톱 앱의 키체인으로 암호화된 키입니다. 키는 {{path}}에 그대로 있지만 사용되지 않습니다. 키 파일을 되돌리거나 키를 다시 추가하세요.',
  keychain_key_file: '시스템 키체인을 사용할 수 없어 API 키를 데이터 폴더의 키 파일로 암호화합니다.',
  keys_not_stored:
    '시스템 키체인을 사용할 수 없고 키 파일 사용도 거절되어 API 키를 저장하지 않습니다. RESOLUTE_API_KEY나 --api-key-file로 키를 지정하거나, 다시 시작해 키 파일 사용을 허용하세요.',
  history_damaged_in_use:
    '{{path}}의 기록 데이터베이스가 손상되었습니다({{detail}}). 시작 후 백그라운드 무결성 검사에서 발견되었습니다. 아무것도 옮기거나 삭제하지 않았습니다. Resolute를 다시 시작하면 이 파일을 옆으로 옮겨 두고 빈 기록으로 새로 시작할 수 있습니다(명령줄에서는 --reset-damaged-history).',
  compaction_still_too_long:
    '대화를 요약했는데도 모델이 처리하기에 여전히 너무 깁니다. 새 채팅을 시작하거나 메시지를 줄이세요.',
  bash_off_on_windows:
    'Windows에서는 bash를 쓸 수 없습니다. Resolute가 명령을 실행할 수 있는 OS 샌드박스가 없고, 샌드박스 밖에서는 명령을 실행하지 않기 때문입니다. 파일 도구(read, ls, find, grep, write, edit)는 그대로 쓸 수 있습니다.',
  turn_save_failed: '턴을 기록에 저장하지 못했습니다: {{detail}}',
  retry_history_save_failed: '재시도 기록을 저장하지 못했습니다: {{detail}}',
  turn_internal_error: '턴을 처리하는 중 내부 오류가 발생했습니다: {{detail}}',
  compaction_retry_failed: '요약한 뒤 다시 시도하지 못했습니다: {{detail}}',
  turn_command_failed: '턴을 실행하지 못했습니다: {{detail}}',
  simulator_script_not_applied: '시뮬레이터 스크립트를 적용하지 못했습니다: {{detail}}',
  catalogue_load_failed: '모델 목록을 불러오지 못했습니다: {{detail}}',
  log_write_failed: '로그 파일 {{path}}에 기록하지 못했습니다: {{detail}}',
  extension_disabled: '확장 기능 {{path}}을(를) 비활성화했습니다: {{detail}}',
};
