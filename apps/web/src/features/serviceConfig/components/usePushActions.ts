import type { ServiceConfig } from '@aed/contracts/service-config'
import { useTranslation } from 'react-i18next'
import { useConfirm } from '../../../lib/useConfirm'
import { useSubmit } from '../../../lib/useSubmit'
import { useSaveServiceConfig } from '../api/useSaveServiceConfig'

/**
 * 重新生成推送密钥 and 恢复推送 of a saved configuration: each an update with its saved services
 * and state (the push URL unchanged) and one flag; what the dialog's form holds is not saved.
 */
export function usePushActions(config: ServiceConfig | undefined, onIssued: (answer: ServiceConfig) => void) {
  const { t } = useTranslation()
  const confirm = useConfirm()
  const save = useSaveServiceConfig()
  const regenerated = useSubmit(save, { success: t('serviceConfig.pushSecretDone'), onDone: onIssued })
  const enabled = useSubmit(save, { success: t('serviceConfig.pushDisabled.enabled') })
  const saved = (c: ServiceConfig) => ({ service: c.service, state: c.state })
  return {
    busy: save.isPending,
    onRegenerateSecret: () =>
      config &&
      confirm({
        title: t('serviceConfig.regeneratePushSecretTitle'),
        content: t('serviceConfig.regeneratePushSecretContent'),
        danger: true,
        onOk: () => regenerated({ id: config.id, body: { ...saved(config), regenerate_push_secret: true } }),
      }),
    onEnable: () => config && enabled({ id: config.id, body: { ...saved(config), enable_push: true } }),
  }
}
