import { textColorOn } from '@portal/contracts';

/**
 * Slice labels drawn on the slices (issue 29.5): ApexCharts writes them white with a soft shadow, which
 * on amber, green, teal or grey slices stays under WCAG AA (2.1 to 3.6:1). Each label takes the more
 * readable of dark and white text on its own slice colour, without the shadow.
 */
export function sliceLabels(colors: string[]) {
  return {
    style: { colors: colors.map((c) => textColorOn(c)) },
    dropShadow: { enabled: false },
  };
}
