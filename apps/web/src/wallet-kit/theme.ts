import { darkTheme, lightTheme } from '@rainbow-me/rainbowkit'

type ThemeVars = ReturnType<typeof lightTheme>

/**
 * RainbowKit's light and dark themes in the configured accent colour. The light theme's secondary text
 * (wallet group labels, hints) is RainbowKit's grey at 80 % instead of 60 %: 60 % on the white modal is
 * 3.3:1, below WCAG AA's 4.5:1 for its 14 px text (axe, e2e/tests/accessibility.spec.ts).
 */
export function walletKitTheme(accentColor: string): { lightMode: ThemeVars; darkMode: ThemeVars } {
  const light = lightTheme({ accentColor })
  return {
    lightMode: { ...light, colors: { ...light.colors, modalTextSecondary: 'rgba(60, 66, 66, 0.8)' } },
    darkMode: darkTheme({ accentColor }),
  }
}
