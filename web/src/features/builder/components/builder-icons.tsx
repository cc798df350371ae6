import { Icon } from '@chakra-ui/react';
import {
  Briefcase,
  Building,
  CreditCard,
  IdCard,
  Laptop,
  List,
  Package,
  Plane,
  ReceiptText,
  Ticket,
  Truck,
  type LucideIcon,
} from 'lucide-react';

/** The group icons of spec 2 §2.7, by the spec's names (GROUP_ICONS), from the app's icon set (lucide). */
const GROUP_GLYPHS: Record<string, LucideIcon> = {
  'address card': IdCard,
  invoice: ReceiptText,
  truck: Truck,
  'credit card': CreditCard,
  box: Package,
  building: Building,
  briefcase: Briefcase,
  ticket: Ticket,
  laptop: Laptop,
  plane: Plane,
  list: List,
};

/** A group's icon beside its heading: decorative, so hidden from assistive technology (Chakra's Icon default). */
export function GroupIcon({ name }: { name: string }) {
  const Glyph = GROUP_GLYPHS[name];
  if (!Glyph) return null;
  return (
    <Icon size="sm" data-icon={name}>
      <Glyph />
    </Icon>
  );
}
