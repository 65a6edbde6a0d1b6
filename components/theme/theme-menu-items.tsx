"use client";

import { Monitor, Moon, Sun } from "lucide-react";
import { DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuRadioItem } from "@/components/ui/dropdown-menu";
import { useTheme } from "./theme-provider";
import { isThemeChoice } from "./theme-storage";

/** The theme toggle, as a radio group inside a dropdown menu (the user menu): Light, Dark, System. */
export function ThemeMenuItems() {
  const { theme, setTheme } = useTheme();
  return (
    <>
      <DropdownMenuLabel>Theme</DropdownMenuLabel>
      <DropdownMenuRadioGroup value={theme} onValueChange={(value) => isThemeChoice(value) && setTheme(value)}>
        <DropdownMenuRadioItem value="light" onSelect={(e) => e.preventDefault()}>
          <Sun aria-hidden /> Light
        </DropdownMenuRadioItem>
        <DropdownMenuRadioItem value="dark" onSelect={(e) => e.preventDefault()}>
          <Moon aria-hidden /> Dark
        </DropdownMenuRadioItem>
        <DropdownMenuRadioItem value="system" onSelect={(e) => e.preventDefault()}>
          <Monitor aria-hidden /> System
        </DropdownMenuRadioItem>
      </DropdownMenuRadioGroup>
    </>
  );
}
