import type { PublicConfig } from '@guildhall/core'
import { createContext, type ReactNode, useContext } from 'react'

const PublicConfigContext = createContext<PublicConfig | null>(null)

export function PublicConfigProvider({ config, children }: { config: PublicConfig; children: ReactNode }) {
  return <PublicConfigContext.Provider value={config}>{children}</PublicConfigContext.Provider>
}

/** The validated run-time config; throws outside the provider so a mistake shows at once. */
export function usePublicConfig(): PublicConfig {
  const config = useContext(PublicConfigContext)
  if (!config) throw new Error('usePublicConfig must be used inside <PublicConfigProvider>')
  return config
}
