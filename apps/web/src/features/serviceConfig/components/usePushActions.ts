import type { ServiceConfig } from '@aed/contracts/service-config'
import { useTranslation } from 'react-i18next'
import { useConfirm } from '../../../lib/useConfirm'
import { useSubmit } from '../../../lib/useSubmit'
import { useSaveServiceConfig } from '../api/useSaveServiceConfig'

/**
 * 重新生成推送密钥 and 恢复推送 of a saved configuration: each an update with its saved services,
 * state and push URL and one flag; what the dialog's form holds is not saved. The push URL is
 * always sent: the contract reads a missing one as null, which would remove it.
 */
export function usePushActions(config: ServiceConfig | undefined, onIssued: (answer: ServiceConfig) => void) {
  const { t } = useTranslation()
  const confirm = useConfirm()
  const save = useSaveServiceConfig()
  const regenerated = useSubmit(save, { success: t('serviceConfig.pushSecretDone'), onDone: onIssued })
  const enabled = useSubmit(save, { success: t('serviceConfig.pushDisabled.enabled') })
  const saved = (c: ServiceConfig) => ({ service: c.service, state: c.state, push_url: c.push_url })
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
