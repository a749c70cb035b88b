import { fileURLToPath } from 'node:url';

// A font with every Turkish letter; PDF's built-in Helvetica has no ş, ğ or ı.
export const FONT_REGULAR = fileURLToPath(import.meta.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'));
export const FONT_BOLD = fileURLToPath(import.meta.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'));
