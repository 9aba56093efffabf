from django.shortcuts import render


def game_list(request):
    return render(request, "games/game_list.html")


def rules(request):
    return render(request, "games/rules.html")
